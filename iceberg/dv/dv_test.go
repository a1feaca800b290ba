package dv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
)

func seq(from, to, step int64) []int64 {
	var out []int64
	for p := from; p < to; p += step {
		out = append(out, p)
	}
	return out
}

func TestBitmapRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		positions []int64
	}{
		{"empty", nil},
		{"one", []int64{0}},
		{"sparse", []int64{1, 3, 5, 7, 9, 1000, 65535, 65536, 1 << 20}},
		{"dense bitmap container", seq(0, 60000, 2)},
		{"full container run", seq(0, 1<<16, 1)},
		{"runs", append(seq(10, 5000, 1), seq(7000, 9000, 1)...)},
		{"mixed containers", append(append(seq(0, 100, 3), seq(1<<16, 1<<16+10000, 1)...), seq(2<<16, 3<<16, 2)...)},
		{"above 2^32", []int64{5, 1 << 32, 1<<32 + 1, 3<<32 | 7, 1<<62 + 9}},
		{"max position", []int64{1<<63 - 1}},
		{"many containers with runs", seq(0, 10<<16, 1<<15)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := EncodeBitmap(tc.positions)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeBitmap(b, int64(len(tc.positions)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.positions) {
				t.Fatalf("decoded %d positions, want %d (first %v)", len(got), len(tc.positions), got[:min(5, len(got))])
			}
			blob, err := EncodeBlob(tc.positions)
			if err != nil {
				t.Fatal(err)
			}
			got, err = DecodeBlob(blob, int64(len(tc.positions)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.positions) {
				t.Fatalf("blob decoded %d positions, want %d", len(got), len(tc.positions))
			}
		})
	}
}

// TestBitmapLayout pins the bytes of small bitmaps as the Roaring portable
// format lays them out.
func TestBitmapLayout(t *testing.T) {
	le16 := func(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
	le32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name      string
		positions []int64
		want      []byte
	}{
		{"empty", nil, make([]byte, 8)},
		{"arrays under two keys", []int64{5, 1<<32 | 7}, cat(
			binary.LittleEndian.AppendUint64(nil, 2),
			le32(0), le32(cookieNoRuns), le32(1), le16(0), le16(0), le32(16), le16(5),
			le32(1), le32(cookieNoRuns), le32(1), le16(0), le16(0), le32(16), le16(7))},
		{"one run", seq(0, 100, 1), cat(
			binary.LittleEndian.AppendUint64(nil, 1),
			le32(0), le32(cookieRuns), []byte{1}, le16(0), le16(99), le16(1), le16(0), le16(99))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeBitmap(tc.positions)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("got  % x\nwant % x", got, tc.want)
			}
		})
	}
}

func TestEncodeRejectsBadPositions(t *testing.T) {
	for name, ps := range map[string][]int64{"negative": {-1}, "unsorted": {3, 2}, "repeated": {2, 2}} {
		t.Run(name, func(t *testing.T) {
			if _, err := EncodeBlob(ps); !errors.Is(err, ErrInvalidPositions) {
				t.Fatalf("got %v, want ErrInvalidPositions", err)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	good, err := EncodeBlob([]int64{1, 2, 3, 1 << 33})
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(b []byte) []byte) []byte { return f(slices.Clone(good)) }
	tests := []struct {
		name string
		blob []byte
		max  int64
		want error
	}{
		{"short", good[:6], 10, ErrCorrupt},
		{"length mismatch", mutate(func(b []byte) []byte { b[3]++; return b }), 10, ErrCorrupt},
		{"bad magic", mutate(func(b []byte) []byte { b[4] = 0; return b }), 10, ErrCorrupt},
		{"bad crc", mutate(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), 10, ErrCorrupt},
		{"too many positions", good, 3, ErrTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := DecodeBlob(tc.blob, tc.max); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	bitmapTests := []struct {
		name string
		b    []byte
	}{
		{"huge count", binary.LittleEndian.AppendUint64(nil, 1<<40)},
		{"keys not increasing", func() []byte {
			b := binary.LittleEndian.AppendUint64(nil, 2)
			for range 2 {
				b = binary.LittleEndian.AppendUint32(b, 4)
				b = binary.LittleEndian.AppendUint32(b, cookieNoRuns)
				b = binary.LittleEndian.AppendUint32(b, 0)
			}
			return b
		}()},
		{"sign bit key", func() []byte {
			b := binary.LittleEndian.AppendUint64(nil, 1)
			b = binary.LittleEndian.AppendUint32(b, 1<<31)
			b = binary.LittleEndian.AppendUint32(b, cookieNoRuns)
			return binary.LittleEndian.AppendUint32(b, 0)
		}()},
		{"bad cookie", func() []byte {
			b := binary.LittleEndian.AppendUint64(nil, 1)
			b = binary.LittleEndian.AppendUint32(b, 0)
			b = binary.LittleEndian.AppendUint32(b, 999)
			return binary.LittleEndian.AppendUint32(b, 0)
		}()},
		{"trailing bytes", append(make([]byte, 8), 1)},
	}
	for _, tc := range bitmapTests {
		t.Run(tc.name, func(t *testing.T) {
			var ce *CorruptError
			if _, err := DecodeBitmap(tc.b, 1<<20); !errors.As(err, &ce) {
				t.Fatalf("got %v, want *CorruptError", err)
			}
		})
	}
}

func TestUnion(t *testing.T) {
	got := Union([]int64{1, 3, 5}, []int64{2, 3, 9})
	if want := []int64{1, 2, 3, 5, 9}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func FuzzDecodeBlob(f *testing.F) {
	for _, ps := range [][]int64{nil, {1, 2, 3}, seq(0, 5000, 1), seq(0, 20000, 3), {1 << 40}} {
		b, _ := EncodeBlob(ps)
		f.Add(b)
		bm, _ := EncodeBitmap(ps)
		f.Add(bm)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		const limit = 1 << 16
		if ps, err := DecodeBitmap(b, limit); err == nil {
			if len(ps) > limit || !slices.IsSorted(ps) {
				t.Fatalf("decoded %d positions, sorted=%v", len(ps), slices.IsSorted(ps))
			}
			re, err := EncodeBitmap(ps)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeBitmap(re, limit)
			if err != nil || !slices.Equal(back, ps) {
				t.Fatalf("re-encoding changed the positions: %v", err)
			}
		} else if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("untyped error %v", err)
		}
		if _, err := DecodeBlob(b, limit); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("untyped error %v", err)
		}
	})
}
