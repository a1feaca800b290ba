package parquetfile

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/format"
)

// encodeDelta is a reference DELTA_BINARY_PACKED encoder with a free
// block shape: deltas in 64-bit wrap-around arithmetic, so widths reach
// 64 bits. padLast false leaves the last miniblock without its padding.
func encodeDelta(values []int64, block, minis int, padLast bool) []byte {
	zz := func(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }
	out := binary.AppendUvarint(nil, uint64(block))
	out = binary.AppendUvarint(out, uint64(minis))
	out = binary.AppendUvarint(out, uint64(len(values)))
	first := int64(0)
	if len(values) > 0 {
		first = values[0]
	}
	out = binary.AppendUvarint(out, zz(first))
	perMini := block / minis
	for i := 1; i < len(values); i += block {
		deltas := make([]uint64, 0, block)
		for j := i; j < min(i+block, len(values)); j++ {
			deltas = append(deltas, uint64(values[j])-uint64(values[j-1]))
		}
		minDelta := int64(deltas[0])
		for _, d := range deltas {
			minDelta = min(minDelta, int64(d))
		}
		out = binary.AppendUvarint(out, zz(minDelta))
		widths := make([]byte, minis)
		for m := range minis {
			for _, d := range deltas[min(m*perMini, len(deltas)):min((m+1)*perMini, len(deltas))] {
				widths[m] = max(widths[m], byte(bits.Len64(d-uint64(minDelta))))
			}
		}
		out = append(out, widths...)
		for m := range minis {
			lo := m * perMini
			if lo >= len(deltas) {
				break
			}
			w := uint(widths[m])
			packed := make([]byte, perMini*int(w)/8+8)
			for k, d := range deltas[lo:min(lo+perMini, len(deltas))] {
				v := d - uint64(minDelta)
				for b := range w {
					if v>>b&1 == 1 {
						bit := uint(k)*w + b
						packed[bit/8] |= 1 << (bit % 8)
					}
				}
			}
			size := perMini * int(w) / 8
			if !padLast && lo+perMini >= len(deltas) && i+block >= len(values) {
				size = ((len(deltas)-lo)*int(w) + 7) / 8
			}
			out = append(out, packed[:size]...)
		}
	}
	return out
}

func TestDecodeDeltaBinary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	series := map[string][]int64{
		"empty":     {},
		"one":       {-7},
		"constant":  slices.Repeat([]int64{42}, 300),
		"ascending": make([]int64, 1000),
		"random":    make([]int64, 777),
		"extremes":  {math.MinInt64, math.MaxInt64, 0, math.MinInt64, -1, math.MaxInt64, 1},
		"small":     make([]int64, 129),
	}
	for i := range series["ascending"] {
		series["ascending"][i] = int64(i * 3)
	}
	for i := range series["random"] {
		series["random"][i] = r.Int64() >> r.IntN(64)
	}
	for i := range series["small"] {
		series["small"][i] = int64(r.IntN(16))
	}
	shapes := []struct{ block, minis int }{{128, 4}, {128, 1}, {256, 8}, {1024, 32}}
	for name, vals := range series {
		for _, sh := range shapes {
			for _, pad := range []bool{true, false} {
				src := encodeDelta(vals, sh.block, sh.minis, pad)
				t.Run(name, func(t *testing.T) {
					got := make([]int64, len(vals))
					n, err := decodeDeltaBinary(src, got)
					if err != nil {
						t.Fatalf("block %v pad %v: %v", sh, pad, err)
					}
					if n != len(src) || !slices.Equal(got, vals) {
						t.Fatalf("block %v pad %v: read %d of %d bytes, values differ", sh, pad, n, len(src))
					}
					// INT32 values are the low 32 bits of the same sums.
					got32 := make([]int32, len(vals))
					if _, err := decodeDeltaBinary(src, got32); err != nil {
						t.Fatal(err)
					}
					for i, v := range vals {
						if got32[i] != int32(v) {
							t.Fatalf("int32 value %d: %d, want %d", i, got32[i], int32(v))
						}
					}
				})
			}
		}
	}
}

// TestDecodeDeltaBinaryParquetGo decodes parquet-go's encoder's output
// (INT32 deltas computed in 32 bits, wrapping).
func TestDecodeDeltaBinaryParquetGo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := make([]int32, 5000)
	for i := range vals {
		vals[i] = int32(r.Uint32())
		if i%3 == 0 {
			vals[i] = int32(i)
		}
	}
	vals[10], vals[11] = math.MaxInt32, math.MinInt32
	src, err := new(delta.BinaryPackedEncoding).EncodeInt32(nil, vals)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]int32, len(vals))
	if n, err := decodeDeltaBinary(src, got); err != nil || n != len(src) {
		t.Fatalf("read %d of %d bytes: %v", n, len(src), err)
	}
	if !slices.Equal(got, vals) {
		t.Fatal("values differ")
	}
}

func TestDecodeDeltaBinaryErrors(t *testing.T) {
	valid := encodeDelta([]int64{1, 5, 9, 100, -3}, 128, 4, true)
	long := make([]int64, 300)
	for i := range long {
		long[i] = int64(i * i * i)
	}
	unpadded := encodeDelta(long, 128, 4, false)
	header := func(block, minis, count uint64, first int64) []byte {
		b := binary.AppendUvarint(nil, block)
		b = binary.AppendUvarint(b, minis)
		b = binary.AppendUvarint(b, count)
		return binary.AppendUvarint(b, uint64(first)<<1)
	}
	cases := []struct {
		name string
		src  []byte
		n    int
		want string
	}{
		{"empty", nil, 5, "malformed"},
		{"block not a multiple of 128", header(100, 1, 1, 0), 1, "block"},
		{"zero miniblocks", header(128, 0, 1, 0), 1, "miniblocks"},
		{"miniblock of 16 values", header(128, 8, 1, 0), 1, "miniblocks"},
		{"huge block", header(1<<40, 1, 1, 0), 1, "block"},
		{"count mismatch", valid, 4, "expected"},
		{"count unbacked", header(128, 4, 1<<20, 0), 1 << 20, "bytes"},
		{"widths truncated", valid[:6], 5, "bytes"},
		{"width 65", append(header(128, 4, 2, 0), 0, 65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 2, "width"},
		{"miniblock truncated", unpadded[:len(unpadded)-1], 300, "truncated"},
		{"varint overlong", append(header(128, 4, 2, 0), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 2, "malformed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeDeltaBinary(tc.src, make([]int64, tc.n))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error about %q", err, tc.want)
			}
		})
	}
}

func TestDecodeDeltaLengthBytes(t *testing.T) {
	vals := [][]byte{[]byte("a"), nil, []byte("héllo"), []byte(strings.Repeat("x", 300)), []byte("z")}
	var flat []byte
	offs := []uint32{0}
	for _, v := range vals {
		flat = append(flat, v...)
		offs = append(offs, uint32(len(flat)))
	}
	src, err := new(delta.LengthByteArrayEncoding).EncodeByteArray(nil, flat, offs)
	if err != nil {
		t.Fatal(err)
	}
	bin, off, err := decodeDeltaLengthBytes(src, len(vals), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if got := bin[off[i]:off[i+1]]; string(got) != string(v) {
			t.Fatalf("value %d: %q, want %q", i, got, v)
		}
	}
	t.Run("lengths past the bytes", func(t *testing.T) {
		if _, _, err := decodeDeltaLengthBytes(src[:len(src)-1], len(vals), nil); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("negative length", func(t *testing.T) {
		bad := encodeDelta([]int64{3, -1}, 128, 4, true)
		bad = append(bad, "abcdef"...)
		if _, _, err := decodeDeltaLengthBytes(bad, 2, nil); err == nil || !strings.Contains(err.Error(), "negative") {
			t.Fatalf("got %v", err)
		}
	})
}

// deltaByteArray encodes values as DELTA_BYTE_ARRAY with parquet-go.
func deltaByteArray(t *testing.T, vals []string) []byte {
	t.Helper()
	var flat []byte
	offs := []uint32{0}
	for _, v := range vals {
		flat = append(flat, v...)
		offs = append(offs, uint32(len(flat)))
	}
	src, err := new(delta.ByteArrayEncoding).EncodeByteArray(nil, flat, offs)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestDecodeDeltaByteArray(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	long := strings.Repeat("prefix/", 10)
	random := make([]string, 3000)
	for i := range random {
		random[i] = long[:r.IntN(len(long))] + strings.Repeat("q", r.IntN(40))
	}
	cases := map[string][]string{
		"empty":     {},
		"one empty": {""},
		"urls":      {"http://a.example/x", "http://a.example/xy", "http://a.example/", "http://b.example/" + long, "http://b.example/" + long + "z", ""},
		"random":    random,
	}
	for name, vals := range cases {
		t.Run(name, func(t *testing.T) {
			src := deltaByteArray(t, vals)
			bin, off, err := decodeDeltaByteArray(src, len(vals), nil, 1<<20, 0, func(n int) []byte { return make([]byte, n) })
			if err != nil {
				t.Fatal(err)
			}
			if len(off) != len(vals)+1 || int(off[len(vals)]) != len(bin) {
				t.Fatalf("%d offsets ending at %d for %d values in %d bytes", len(off), off[len(off)-1], len(vals), len(bin))
			}
			for i, v := range vals {
				if got := string(bin[off[i]:off[i+1]]); got != v {
					t.Fatalf("value %d: %q, want %q", i, got, v)
				}
			}
		})
	}
}

func TestDecodeDeltaByteArrayFixed(t *testing.T) {
	vals := []string{"abcd", "abce", "zzzz", "zzzz", "azzz"}
	src, err := new(delta.ByteArrayEncoding).EncodeFixedLenByteArray(nil, []byte(strings.Join(vals, "")), 4)
	if err != nil {
		t.Fatal(err)
	}
	bin, _, err := decodeDeltaByteArray(src, len(vals), nil, 1<<20, 4, func(n int) []byte { return make([]byte, n) })
	if err != nil {
		t.Fatal(err)
	}
	if string(bin) != strings.Join(vals, "") {
		t.Fatalf("got %q", bin)
	}
	if _, _, err := decodeDeltaByteArray(src, len(vals), nil, 1<<20, 5, func(n int) []byte { return make([]byte, n) }); err == nil {
		t.Fatal("values of 4 bytes read as width 5")
	}
}

func TestDecodeDeltaByteArrayErrors(t *testing.T) {
	withSuffixes := func(prefix, suffix []int64, data string) []byte {
		b := encodeDelta(prefix, 128, 4, true)
		b = append(b, encodeDelta(suffix, 128, 4, true)...)
		return append(b, data...)
	}
	alloc := func(n int) []byte { return make([]byte, n) }
	cases := []struct {
		name  string
		src   []byte
		n     int
		limit int64
		want  string
	}{
		{"first value with a prefix", withSuffixes([]int64{2, 0}, []int64{1, 1}, "ab"), 2, 1 << 20, "prefix"},
		{"prefix longer than the value before", withSuffixes([]int64{0, 3}, []int64{2, 1}, "abc"), 2, 1 << 20, "prefix"},
		{"negative prefix", withSuffixes([]int64{0, -1}, []int64{2, 1}, "abc"), 2, 1 << 20, "prefix"},
		{"suffixes past the bytes", withSuffixes([]int64{0, 0}, []int64{2, 5}, "abc"), 2, 1 << 20, "suffixes"},
		{"suffix count differs", withSuffixes([]int64{0, 0}, []int64{2}, "ab"), 2, 1 << 20, "suffix lengths"},
		{"values past the limit", withSuffixes([]int64{0, 10, 10, 10}, []int64{10, 0, 0, 0}, "0123456789"), 4, 35, "more than 35"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := decodeDeltaByteArray(tc.src, tc.n, nil, tc.limit, 0, alloc)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error about %q", err, tc.want)
			}
		})
	}
}

// TestCheckDeltaValues: the page checker run before parquet-go decodes
// DELTA_* pages (nested columns, fallback chunks) rejects streams
// claiming more values than the page, or values far beyond its bytes.
func TestCheckDeltaValues(t *testing.T) {
	const many = 200_000
	prefixes := make([]int64, many+1)
	suffixes := make([]int64, many+1)
	suffixes[0] = 1000
	for i := 1; i <= many; i++ {
		prefixes[i] = 1000 // each value repeats the first: 200 MB
	}
	bomb := append(encodeDelta(prefixes, 128, 4, true), encodeDelta(suffixes, 128, 4, true)...)
	bomb = append(bomb, strings.Repeat("x", 1000)...)
	ints := encodeDelta([]int64{1, 2, 3, 4}, 128, 4, true)
	cases := []struct {
		name string
		data []byte
		enc  format.Encoding
		n    int64
		want string // "" for no error
	}{
		{"values within the page", ints, format.DeltaBinaryPacked, 4, ""},
		{"values and nulls", ints, format.DeltaBinaryPacked, 9, ""},
		{"more values than entries", ints, format.DeltaBinaryPacked, 3, "page of 3"},
		{"lengths past the bytes", ints, format.DeltaLengthByteArray, 4, "bytes left"},
		{"prefixes past the limit", bomb, format.DeltaByteArray, many + 1, "more than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := checkValues(tc.data, tc.enc, tc.n)
			runtime.ReadMemStats(&after)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Fatalf("allocated %d bytes", alloc)
			}
		})
	}
}
