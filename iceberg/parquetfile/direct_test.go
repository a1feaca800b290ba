package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go/format"
)

// flatTypesSchema has every primitive type as a top-level column.
func flatTypesSchema() *iceberg.Schema {
	var fields []iceberg.NestedField
	for _, f := range allTypesSchema().Fields() {
		if _, nested := f.Type.(iceberg.NestedType); !nested {
			fields = append(fields, f)
		}
	}
	return iceberg.MustSchema(0, fields...)
}

// writePqarrow writes rec with arrow-go's writer (the stack of
// iceberg-go and pyarrow-like writers).
func writePqarrow(t testing.TB, rec arrow.RecordBatch, props *parquet.WriterProperties, aprops pqarrow.ArrowWriterProperties) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(rec.Schema(), &buf, props, aprops)
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pqarrowCases are writer settings covering data page v1 and v2, every
// codec, dictionary and PLAIN pages (and the fallback from one to the
// other), and the DELTA_* encodings.
func pqarrowCases() map[string][]parquet.WriterProperty {
	small := []parquet.WriterProperty{parquet.WithDataPageSize(2 << 10), parquet.WithDictionaryPageSizeLimit(1 << 10), parquet.WithBatchSize(256)}
	with := func(opts ...parquet.WriterProperty) []parquet.WriterProperty {
		return append(append([]parquet.WriterProperty{}, small...), opts...)
	}
	return map[string][]parquet.WriterProperty{
		"v1-dict-zstd":     with(parquet.WithCompression(compress.Codecs.Zstd)),
		"v2-dict-snappy":   with(parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithCompression(compress.Codecs.Snappy)),
		"v1-plain-none":    with(parquet.WithDictionaryDefault(false)),
		"v2-plain-gzip":    with(parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryDefault(false), parquet.WithCompression(compress.Codecs.Gzip)),
		"v2-plain-none":    with(parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryDefault(false)),
		"v1-dict-big-page": {parquet.WithCompression(compress.Codecs.Zstd)},
		"v2-delta": with(parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryDefault(false),
			parquet.WithEncodingFor("int", parquet.Encodings.DeltaBinaryPacked),
			parquet.WithEncodingFor("z_long", parquet.Encodings.DeltaBinaryPacked),
			parquet.WithEncodingFor("str", parquet.Encodings.DeltaByteArray),
			parquet.WithEncodingFor("bin", parquet.Encodings.DeltaLengthByteArray),
			parquet.WithEncodingFor("double", parquet.Encodings.ByteStreamSplit)),
	}
}

// TestReadOtherWritersFlat reads files of flat columns written by
// arrow-go in every page shape, comparing with the written values.
func TestReadOtherWritersFlat(t *testing.T) {
	s := flatTypesSchema()
	rec := randomRecord(s, 3000, 11)
	defer rec.Release()
	for name, opts := range pqarrowCases() {
		for _, int96 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/int96=%v", name, int96), func(t *testing.T) {
				aprops := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithDeprecatedInt96Timestamps(int96))
				data := writePqarrow(t, rec, parquet.NewWriterProperties(opts...), aprops)
				for _, batch := range []int{100, 4096} {
					tbl := readAll(t, data, s, ReadOptions{BatchSize: batch})
					for i := range s.Fields() {
						sameValues(t, s.Fields()[i].Name, rec.Column(i), column(t, tbl, i))
					}
					tbl.Release()
				}
			})
		}
	}
}

// TestDirectFooterUnderstatesEncodings: a chunk whose footer lists fewer
// encodings than its pages use (PLAIN and RLE, for DELTA_* pages) reads
// right: each page is decoded by its own header's encoding. (The hand-over
// to parquet-go for a page the direct decoder does not know is
// TestGoPagesTakeOverAfterDictionary.)
func TestDirectFooterUnderstatesEncodings(t *testing.T) {
	s := flatTypesSchema()
	rec := randomRecord(s, 2000, 5)
	defer rec.Release()
	opts := pqarrowCases()["v2-delta"]
	data := writePqarrow(t, rec, parquet.NewWriterProperties(opts...), pqarrow.DefaultWriterProps())
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, rg := range r.file.Metadata().RowGroups {
		for j := range rg.Columns {
			rg.Columns[j].MetaData.Encoding = []format.Encoding{format.Plain, format.RLE}
		}
	}
	proj := s
	rr, err := r.NewRecordReader(t.Context(), proj, ReadOptions{BatchSize: 333})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	recs, err := rr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	row := 0
	for _, got := range recs {
		for i := range s.Fields() {
			want := array.NewSlice(rec.Column(i), int64(row), int64(row)+got.NumRows())
			sameValues(t, s.Fields()[i].Name, want, got.Column(i))
			want.Release()
		}
		row += int(got.NumRows())
		got.Release()
	}
	if row != 2000 {
		t.Fatalf("read %d rows", row)
	}
}

// TestGoPagesSkip: the parquet-go reader taking over part way skips the
// entries already decoded, whole pages at a time.
func TestGoPagesSkip(t *testing.T) {
	s := iceberg.MustSchema(0, opt(1, "l", iceberg.LongType{}))
	rec := smallRecord(t, s, func(b array.Builder) {
		for i := range 5000 {
			if i%7 == 0 {
				b.AppendNull()
			} else {
				b.(*array.Int64Builder).Append(int64(i))
			}
		}
	})
	defer rec.Release()
	data, _ := writeFile(t, s, WriterOptions{PageSizeBytes: 2 << 10, Compression: "uncompressed"}, rec)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	f := rr.flat[0]
	ref := chunkRef{r: r, group: 0, cc: r.file.RowGroups()[0].ColumnChunks()[0]}
	// The first page's entries, as the direct decoder claims them.
	d := newDirectChunk(ref, f.leaf, f.node)
	var first chunkData
	n, err := d.claim(&first)
	if err != nil || n == 0 || n >= 5000 {
		t.Fatalf("first page: %d entries, %v", n, err)
	}
	g := &goPages{ref: ref, leaf: f.leaf, node: f.node, maxDef: 1, skip: int64(n)}
	defer g.close()
	var c chunkData
	if _, err := g.claim(&c); err != nil {
		t.Fatal(err)
	}
	// Entry n is row n: null when n%7 == 0, else the value n.
	if n%7 == 0 {
		if c.def[0] != 0 {
			t.Fatalf("entry %d should be null", n)
		}
		return
	}
	v := c.i64[0]
	if c.idx != nil {
		v = c.i64[c.idx[0]]
	}
	if c.def[0] != 1 || v != int64(n) {
		t.Fatalf("entry %d: def %d value %d", n, c.def[0], v)
	}
}

// TestDirectCorruptPages: corrupt pages of every shape the direct
// decoder reads fail with a corrupt-file error, never a panic.
func TestDirectCorruptPages(t *testing.T) {
	s := iceberg.MustSchema(0, opt(1, "s", iceberg.StringType{}))
	rec := smallRecord(t, s, func(b array.Builder) {
		for i := range 200 {
			if i%5 == 0 {
				b.AppendNull()
			} else {
				b.(*array.StringBuilder).Append(fmt.Sprintf("value-%d", i%3))
			}
		}
	})
	defer rec.Release()
	dictFile, _ := writeFile(t, s, WriterOptions{Compression: "uncompressed"}, rec)
	v2 := parquet.NewWriterProperties(parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryDefault(false))
	v2File := writePqarrow(t, rec, v2, pqarrow.DefaultWriterProps())
	cases := []struct {
		name   string
		data   []byte
		mutate func(h *format.PageHeader)
	}{
		{"v2 definition levels past the page", v2File, func(h *format.PageHeader) {
			h.DataPageHeaderV2.V.DefinitionLevelsByteLength = h.CompressedPageSize + 1
		}},
		{"v2 negative level length", v2File, func(h *format.PageHeader) {
			h.DataPageHeaderV2.V.DefinitionLevelsByteLength = -3
		}},
		{"v2 more values than the page holds", v2File, func(h *format.PageHeader) {
			h.DataPageHeaderV2.V.NumValues += 50
		}},
		{"dictionary page claims more entries", dictFile, func(h *format.PageHeader) {
			h.DictionaryPageHeader.V.NumValues += 1000
		}},
		{"dictionary page truncated", dictFile, func(h *format.PageHeader) {
			h.UncompressedPageSize -= 3
			h.CompressedPageSize -= 3
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := withFirstPageHeader(t, tc.data, tc.mutate)
			err, _ := readCorrupt(t, data)
			if !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("got %v, want a corrupt-file error", err)
			}
			var ce *iceberg.CorruptFileError
			if !errors.As(err, &ce) {
				t.Fatalf("got %T, want *CorruptFileError", err)
			}
		})
	}
}

// TestDirectUnbackedPageSize: a page (and chunk) claiming far more
// uncompressed bytes than its compressed bytes can produce is rejected
// without a buffer of the claimed size.
func TestDirectUnbackedPageSize(t *testing.T) {
	s := iceberg.MustSchema(1, opt(1, "x", iceberg.LongType{}))
	rec := randomRecord(s, 200, 3)
	defer rec.Release()
	codecs := map[string]compress.Compression{"zstd": compress.Codecs.Zstd, "snappy": compress.Codecs.Snappy,
		"gzip": compress.Codecs.Gzip, "uncompressed": compress.Codecs.Uncompressed}
	for name, codec := range codecs {
		t.Run(name, func(t *testing.T) {
			// No dictionary: the first page is a data page.
			props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithCompression(codec))
			data := writePqarrow(t, rec, props, pqarrow.DefaultWriterProps())
			bad := withFirstPageHeader(t, data, func(h *format.PageHeader) {
				if h.Type != format.DataPage {
					t.Fatalf("first page is %v", h.Type)
				}
				h.UncompressedPageSize = 512 << 20
			})
			r, err := Open(bytes.NewReader(bad), int64(len(bad)))
			if err != nil {
				t.Fatal(err)
			}
			m := &r.file.Metadata().RowGroups[0].Columns[0].MetaData
			m.TotalUncompressedSize = 1 << 30
			m.TotalCompressedSize += int64(len(bad) - len(data)) // the longer header
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = rr.ReadAll()
			rr.Close()
			runtime.ReadMemStats(&after)
			if !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("got %v, want a corrupt-file error", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
				t.Fatalf("allocated %d bytes for a %d-byte file", alloc, len(bad))
			}
		})
	}
}
