package parquetfile

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// readCorrupt reads a whole file and returns the first error, with the
// bytes allocated meanwhile.
func readCorrupt(t *testing.T, data []byte) (error, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := func() error {
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return err
		}
		s, err := r.Schema(nil)
		if err != nil {
			return err
		}
		rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{})
		if err != nil {
			return err
		}
		defer rr.Close()
		for {
			rec, err := rr.Next()
			if err != nil {
				return err
			}
			rec.Release()
		}
	}()
	runtime.ReadMemStats(&after)
	return err, after.TotalAlloc - before.TotalAlloc
}

// withFirstPageHeader rewrites the header of the first page of a
// single-column file (the footer is found from the end, so the shift of
// a re-encoded header leaves it readable).
func withFirstPageHeader(t *testing.T, data []byte, mutate func(h *format.PageHeader)) []byte {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	m := f.Metadata().RowGroups[0].Columns[0].MetaData
	start := m.DataPageOffset
	if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
		start = m.DictionaryPageOffset
	}
	var buf []byte
	h, n, err := readPageHeader(bytes.NewReader(data), start, int64(len(data)), &buf)
	if err != nil {
		t.Fatal(err)
	}
	mutate(h)
	enc, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte{}, data[:start]...)
	out = append(out, enc...)
	return append(out, data[start+int64(n):]...)
}

func TestCorruptPageHeaderIsRejectedWithoutHugeAllocation(t *testing.T) {
	s := iceberg.MustSchema(1, opt(1, "x", iceberg.LongType{}))
	rec := randomRecord(s, 200, 3)
	defer rec.Release()
	cases := []struct {
		name   string
		codec  string
		mutate func(h *format.PageHeader)
	}{
		{"compressed size past the chunk", "uncompressed", func(h *format.PageHeader) { h.CompressedPageSize = math.MaxInt32 }},
		{"uncompressed size past the chunk total", "snappy", func(h *format.PageHeader) { h.UncompressedPageSize = math.MaxInt32 }},
		{"uncompressed size past the chunk total (zstd)", "zstd", func(h *format.PageHeader) { h.UncompressedPageSize = 1 << 30 }},
		{"negative size", "snappy", func(h *format.PageHeader) { h.UncompressedPageSize = -1 }},
		{"dictionary of two billion values", "snappy", func(h *format.PageHeader) {
			if h.DictionaryPageHeader.Valid {
				h.DictionaryPageHeader.V.NumValues = math.MaxInt32
			} else {
				h.DataPageHeader.V.NumValues = math.MaxInt32
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, _ := writeFile(t, s, WriterOptions{Compression: tc.codec}, rec)
			if err, _ := readCorrupt(t, data); !errors.Is(err, io.EOF) {
				t.Fatalf("intact file: %v", err)
			}
			bad := withFirstPageHeader(t, data, tc.mutate)
			err, alloc := readCorrupt(t, bad)
			if !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("err = %v, want ErrInvalidDataFile", err)
			}
			var ce *iceberg.CorruptFileError
			if !errors.As(err, &ce) {
				t.Fatalf("err %T is not a *CorruptFileError", err)
			}
			if alloc > 64<<20 {
				t.Fatalf("allocated %d bytes reading a %d-byte file", alloc, len(bad))
			}
		})
	}
}

// The fuzz seeds in testdata stalled readers on multi-gigabyte
// allocations sized from corrupt run lengths and page headers.
func TestFuzzSeedsStayWithinMemory(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzReader", "*"))
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data := fuzzSeedBytes(t, p)
			err, alloc := readCorrupt(t, data)
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("err = %v", err)
			}
			if alloc > 256<<20 {
				t.Fatalf("allocated %d bytes reading a %d-byte file", alloc, len(data))
			}
		})
	}
}

// fuzzSeedBytes decodes a corpus file of the "go test fuzz v1" form
// holding one []byte.
func fuzzSeedBytes(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitN(raw, []byte("\n"), 2)
	if len(lines) < 2 {
		t.Fatalf("%s: not a corpus file", path)
	}
	lit := bytes.TrimSpace(lines[1])
	lit = bytes.TrimSuffix(bytes.TrimPrefix(lit, []byte("[]byte(")), []byte(")"))
	s, err := strconv.Unquote(string(lit))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}

func TestCheckRuns(t *testing.T) {
	run := func(count uint64, packed bool) []byte {
		u := count << 1
		if packed {
			u |= 1
		}
		return binary.AppendUvarint(nil, u)
	}
	cases := []struct {
		name  string
		src   []byte
		width uint
		n     int64
		ok    bool
	}{
		{"rle run of n", append(run(100, false), 7), 3, 100, true},
		{"bit-packed groups of n", append(run(2, true), make([]byte, 2)...), 1, 16, true},
		{"last group padded", append(run(2, true), make([]byte, 2)...), 1, 9, true},
		{"last run padded to 256 values (DuckDB)", append(append(run(3, false), 1), append(run(32, true), make([]byte, 32)...)...), 1, 10, true},
		{"padded last run truncated", append(run(32, true), make([]byte, 4)...), 1, 10, false},
		{"runs after a padded run", append(append(run(32, true), make([]byte, 32)...), append(run(100, false), 1)...), 1, 10, false},
		{"rle run of two billion", append(run(math.MaxInt32, false), 1), 1, 100, false},
		{"bit-packed width 0 claiming a billion", run(1<<27, true), 0, 100, false},
		{"runs adding up past n", append(append(run(60, false), 1), append(run(60, false), 1)...), 1, 100, false},
		{"empty", nil, 1, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := checkRuns(tc.src, tc.width, tc.n)
			if (err == nil) != tc.ok {
				t.Fatalf("checkRuns = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestCorruptFooterIsRejectedWithoutHugeAllocation(t *testing.T) {
	frame := func(footer []byte) []byte {
		out := append([]byte("PAR1"), footer...)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
		return append(out, "PAR1"...)
	}
	s := iceberg.MustSchema(1, opt(1, "x", iceberg.LongType{}))
	rec := randomRecord(s, 10, 1)
	defer rec.Release()
	valid, _ := writeFile(t, s, WriterOptions{}, rec)
	longFooter := append([]byte{}, valid...)
	binary.LittleEndian.PutUint32(longFooter[len(longFooter)-8:], 1<<31-1)
	// Field 1 (delta form, type list) holding a list of i32 that claims
	// two billion elements.
	hugeList := binary.AppendUvarint([]byte{0x19, 0xF5}, 1<<31-1)
	deep := bytes.Repeat([]byte{0x1C}, 100000) // struct in struct ...
	cases := []struct {
		name string
		data []byte
	}{
		{"footer length past the file", longFooter},
		{"list of two billion elements", frame(append(hugeList, 0, 0))},
		{"structs nested 100000 deep", frame(deep)},
		{"unknown thrift type", frame([]byte{0x1D, 0})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err, alloc := readCorrupt(t, tc.data)
			if !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("err = %v, want ErrInvalidDataFile", err)
			}
			if alloc > 64<<20 {
				t.Fatalf("allocated %d bytes", alloc)
			}
		})
	}
}
