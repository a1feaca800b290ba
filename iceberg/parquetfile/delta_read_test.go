package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	pgo "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// TestReadDeltaPages reads files of every DELTA_* and BYTE_STREAM_SPLIT
// page shape (v1 and v2 pages, every codec, nulls, several pages per
// chunk) with the direct decoder alone, comparing with pqarrow's reading.
func TestReadDeltaPages(t *testing.T) {
	s := flatTypesSchema()
	rec := randomRecord(s, 1500, 21)
	defer rec.Release()
	for pname, profile := range deltaProfiles() {
		for cname, codec := range deltaCodecs {
			for _, v2 := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/v2=%v", pname, cname, v2), func(t *testing.T) {
					data := writeDeltaFile(t, rec, profile, v2, codec)
					checkDirectOnly(t, data, s)
					want := readWithPqarrow(t, data)
					defer want.Release()
					exp := make([]arrow.Array, len(s.Fields()))
					for i, f := range s.Fields() {
						exp[i] = column(t, want, i)
						defer exp[i].Release()
						sameDeltaValues(t, f.Name, rec.Column(i), exp[i])
					}
					for _, batch := range []int{100, 4096} {
						tbl := readAll(t, data, s, ReadOptions{BatchSize: batch})
						for i, f := range s.Fields() {
							sameDeltaValues(t, f.Name, exp[i], column(t, tbl, i))
						}
						tbl.Release()
					}
				})
			}
		}
	}
}

// TestReadDeltaPromoted reads DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT
// INT32 pages as longs (the values are copied, not bound in place).
func TestReadDeltaPromoted(t *testing.T) {
	s := iceberg.MustSchema(0, opt(1, "a", iceberg.IntType{}), opt(2, "b", iceberg.IntType{}))
	rec := randomRecord(s, 2000, 4)
	defer rec.Release()
	profile := []parquet.WriterProperty{parquet.WithEncodingFor("a", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("b", parquet.Encodings.ByteStreamSplit)}
	data := writeDeltaFile(t, rec, profile, true, compress.Codecs.Snappy)
	checkDirectOnly(t, data, s)
	longs := iceberg.MustSchema(0, opt(1, "a", iceberg.LongType{}), opt(2, "b", iceberg.LongType{}))
	tbl := readAll(t, data, longs, ReadOptions{BatchSize: 300})
	defer tbl.Release()
	for i := range 2 {
		sameValues(t, longs.Fields()[i].Name, rec.Column(i), column(t, tbl, i))
	}
}

// TestReadDictionaryThenDelta: a chunk starting with a dictionary and
// dictionary-encoded pages that goes on in a DELTA_* or BYTE_STREAM_SPLIT
// encoding (as writers falling back from a dictionary that grew too big
// may) reads as one column.
func TestReadDictionaryThenDelta(t *testing.T) {
	cases := []struct {
		field iceberg.NestedField
		enc   parquet.Encoding
	}{
		{opt(1, "s", iceberg.StringType{}), parquet.Encodings.DeltaByteArray},
		{opt(1, "s", iceberg.StringType{}), parquet.Encodings.DeltaLengthByteArray},
		{opt(1, "i", iceberg.IntType{}), parquet.Encodings.DeltaBinaryPacked},
		{req(1, "l", iceberg.LongType{}), parquet.Encodings.DeltaBinaryPacked},
		{opt(1, "d", iceberg.DoubleType{}), parquet.Encodings.ByteStreamSplit},
		{opt(1, "f", iceberg.FixedType{Length: 3}), parquet.Encodings.ByteStreamSplit},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%v", tc.field.Type, tc.enc), func(t *testing.T) {
			s := iceberg.MustSchema(0, tc.field)
			rec := randomRecord(s, 3000, 17)
			defer rec.Release()
			first, rest := rec.NewSlice(0, 1000), rec.NewSlice(1000, 3000)
			defer first.Release()
			defer rest.Release()
			dict := writePqarrow(t, first, parquet.NewWriterProperties(parquet.WithDataPageSize(1<<10), parquet.WithBatchSize(128), parquet.WithCompression(compress.Codecs.Zstd)),
				pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
			enc := writeDeltaFile(t, rest, []parquet.WriterProperty{parquet.WithEncodingFor(tc.field.Name, tc.enc)}, false, compress.Codecs.Zstd)
			data := spliceChunks(t, dict, enc)
			checkDirectOnly(t, data, s)
			want := readWithPqarrow(t, data)
			defer want.Release()
			tbl := readAll(t, data, s, ReadOptions{BatchSize: 333})
			defer tbl.Release()
			exp := column(t, want, 0)
			defer exp.Release()
			sameValues(t, tc.field.Name, exp, column(t, tbl, 0))
			sameValues(t, tc.field.Name, rec.Column(0), exp)
		})
	}
}

// TestDeltaArraysShareDecodedValues: values decoded from DELTA_* and
// BYTE_STREAM_SPLIT pages land in a buffer the arrays may share, and a
// later page never overwrites values an earlier batch holds.
func TestDeltaArraysShareDecodedValues(t *testing.T) {
	s := iceberg.MustSchema(0, req(1, "l", iceberg.LongType{}), req(2, "s", iceberg.StringType{}), req(3, "d", iceberg.DoubleType{}))
	rec := randomRecord(s, 5000, 8)
	defer rec.Release()
	profile := []parquet.WriterProperty{parquet.WithEncodingFor("l", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("s", parquet.Encodings.DeltaByteArray), parquet.WithEncodingFor("d", parquet.Encodings.ByteStreamSplit)}
	for _, codec := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Zstd} {
		data := writeDeltaFile(t, rec, profile, true, codec)
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{BatchSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		// Every batch is kept until the end: were a page's buffer
		// recycled under a batch, the values compared last would differ.
		var kept []arrow.RecordBatch
		for {
			b, err := rr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, b)
		}
		rr.Close()
		tbl := array.NewTableFromRecords(kept[0].Schema(), kept)
		for _, b := range kept {
			b.Release()
		}
		for i, f := range s.Fields() {
			got, err := array.Concatenate(tbl.Column(i).Data().Chunks(), memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			sameValues(t, f.Name, rec.Column(i), got)
			got.Release()
		}
		tbl.Release()
	}
}

// TestGoPagesTakeOverAfterDictionary: when a chunk's footer lists only
// encodings decoded directly but a page after the dictionary-encoded
// ones is in another, parquet-go reads the rest of the chunk, skipping
// the entries already decoded.
func TestGoPagesTakeOverAfterDictionary(t *testing.T) {
	s := iceberg.MustSchema(0, opt(1, "s", iceberg.StringType{}))
	rec := randomRecord(s, 3000, 17)
	defer rec.Release()
	first, rest := rec.NewSlice(0, 1000), rec.NewSlice(1000, 3000)
	defer first.Release()
	defer rest.Release()
	dict := writePqarrow(t, first, parquet.NewWriterProperties(parquet.WithDataPageSize(1<<10), parquet.WithBatchSize(128), parquet.WithCompression(compress.Codecs.Zstd)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	enc := writeDeltaFile(t, rest, []parquet.WriterProperty{parquet.WithEncodingFor("s", parquet.Encodings.DeltaByteArray)}, false, compress.Codecs.Zstd)
	data := spliceChunks(t, dict, enc)
	defer withoutDeltaDecoding()()
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	r.file.Metadata().RowGroups[0].Columns[0].MetaData.Encoding = []format.Encoding{format.Plain, format.RLE, format.RLEDictionary}
	rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{BatchSize: 333})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	// The direct decoder stops part way, at the first delta page.
	f := rr.flat[0]
	d := newDirectChunk(chunkRef{r: r, group: 0, cc: r.file.RowGroups()[0].ColumnChunks()[0]}, f.leaf, f.node)
	var c chunkData
	direct := 0
	for {
		n, err := d.claim(&c)
		if err != nil {
			if !errors.Is(err, errNotDirect) {
				t.Fatalf("after %d entries: %v", direct, err)
			}
			break
		}
		if err := d.decode(&c); err != nil {
			t.Fatal(err)
		}
		direct += n
	}
	c.dropPage()
	if direct == 0 || direct >= 3000 {
		t.Fatalf("%d entries decoded directly", direct)
	}
	recs, err := rr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	tbl := array.NewTableFromRecords(rr.Schema(), recs)
	defer tbl.Release()
	for _, b := range recs {
		b.Release()
	}
	sameValues(t, "s", rec.Column(0), column(t, tbl, 0))
}

// TestReadNestedDeltaPages: nested columns in DELTA_* encodings are read
// by parquet-go, behind the page checker's checks of their streams.
func TestReadNestedDeltaPages(t *testing.T) {
	s := iceberg.MustSchema(0,
		opt(22, "list_opt", &iceberg.ListType{ElementID: 23, Element: iceberg.LongType{}}),
		req(24, "list_req", &iceberg.ListType{ElementID: 25, Element: iceberg.StringType{}, ElementRequired: true}))
	rec := randomRecord(s, 2000, 6)
	defer rec.Release()
	profile := []parquet.WriterProperty{
		parquet.WithEncodingFor("list_opt.list.element", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("list_req.list.element", parquet.Encodings.DeltaByteArray)}
	for _, v2 := range []bool{false, true} {
		data := writeDeltaFile(t, rec, profile, v2, compress.Codecs.Snappy)
		f, err := pgo.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range f.Metadata().RowGroups[0].Columns {
			if !slices.Contains(c.MetaData.Encoding, format.DeltaBinaryPacked) && !slices.Contains(c.MetaData.Encoding, format.DeltaByteArray) {
				t.Fatalf("column %v: encodings %v", c.MetaData.PathInSchema, c.MetaData.Encoding)
			}
		}
		tbl := readAll(t, data, s, ReadOptions{BatchSize: 300})
		for i, fld := range s.Fields() {
			sameValues(t, fld.Name, rec.Column(i), column(t, tbl, i))
		}
		tbl.Release()
	}
}

// TestDeltaCorruptPages: DELTA_* and BYTE_STREAM_SPLIT pages with broken
// streams fail with a corrupt-file error naming the column and page, and
// random damage to their bytes never panics.
func TestDeltaCorruptPages(t *testing.T) {
	cases := []struct {
		field iceberg.NestedField
		enc   parquet.Encoding
	}{
		{opt(1, "i", iceberg.IntType{}), parquet.Encodings.DeltaBinaryPacked},
		{opt(1, "s", iceberg.StringType{}), parquet.Encodings.DeltaLengthByteArray},
		{opt(1, "s", iceberg.StringType{}), parquet.Encodings.DeltaByteArray},
		{opt(1, "d", iceberg.DoubleType{}), parquet.Encodings.ByteStreamSplit},
	}
	for _, tc := range cases {
		t.Run(tc.enc.String(), func(t *testing.T) {
			s := iceberg.MustSchema(0, tc.field)
			rec := randomRecord(s, 300, 2)
			defer rec.Release()
			data := writeDeltaFile(t, rec, []parquet.WriterProperty{parquet.WithEncodingFor(tc.field.Name, tc.enc)}, true, compress.Codecs.Uncompressed)
			f, err := pgo.OpenFile(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			start := f.Metadata().RowGroups[0].Columns[0].MetaData.DataPageOffset
			var buf []byte
			h, n, err := readPageHeader(bytes.NewReader(data), start, int64(len(data)), &buf)
			if err != nil {
				t.Fatal(err)
			}
			v := h.DataPageHeaderV2.V
			values := start + int64(n) + int64(v.RepetitionLevelsByteLength+v.DefinitionLevelsByteLength)
			end := start + int64(n) + int64(h.CompressedPageSize)
			// The stream's first bytes (a DELTA header, or the first
			// byte stream) become an overlong varint or a shorter page.
			bad := bytes.Clone(data)
			for i := values; i < min(values+12, end); i++ {
				bad[i] = 0xff
			}
			if tc.enc == parquet.Encodings.ByteStreamSplit {
				bad = withFirstPageHeader(t, data, func(h *format.PageHeader) { h.DataPageHeaderV2.V.NumValues-- })
			}
			err, _ = readCorrupt(t, bad)
			var ce *iceberg.CorruptFileError
			if !errors.Is(err, iceberg.ErrInvalidDataFile) || !errors.As(err, &ce) {
				t.Fatalf("got %v, want a corrupt-file error", err)
			}
			if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("column %q", tc.field.Name)) || !strings.Contains(msg, "page at offset") {
				t.Fatalf("error %q names neither column nor page", msg)
			}
			r := rand.New(rand.NewPCG(uint64(tc.enc), 1))
			for range 300 {
				bad := bytes.Clone(data)
				for range 1 + r.IntN(4) {
					bad[values+r.Int64N(end-values)] = byte(r.Uint32())
				}
				if err, _ := readCorrupt(t, bad); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, iceberg.ErrInvalidDataFile) {
					t.Fatalf("got %v", err)
				}
			}
		})
	}
}

// TestReadParquetGoDeltaPages reads parquet-go's DELTA_* pages, fixed
// width values among them.
func TestReadParquetGoDeltaPages(t *testing.T) {
	rows := make([]deltaRow, 3000)
	for i := range rows {
		rows[i] = deltaRow{U: [4]byte{'k', byte('a' + i/700), byte(i / 26 % 26), byte(i % 26)},
			S: fmt.Sprintf("key/%03d/%d", i/10, i), L: int64(i*i) - 1e6}
	}
	var buf bytes.Buffer
	w := pgo.NewGenericWriter[deltaRow](&buf, pgo.PageBufferSize(1<<10))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	s := iceberg.MustSchema(0, req(1, "u", iceberg.FixedType{Length: 4}), req(2, "s", iceberg.StringType{}), req(3, "l", iceberg.LongType{}))
	checkDirectOnly(t, data, s)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if e := r.file.Metadata().RowGroups[0].Columns[0].MetaData.Encoding; !slices.Contains(e, format.DeltaByteArray) {
		t.Fatalf("fixed column encodings %v", e)
	}
	tbl := readAll(t, data, s, ReadOptions{BatchSize: 250})
	defer tbl.Release()
	u, str, l := column(t, tbl, 0).(*array.FixedSizeBinary), column(t, tbl, 1).(*array.String), column(t, tbl, 2).(*array.Int64)
	for i, row := range rows {
		if string(u.Value(i)) != string(row.U[:]) || str.Value(i) != row.S || l.Value(i) != row.L {
			t.Fatalf("row %d: %q %q %d, want %+v", i, u.Value(i), str.Value(i), l.Value(i), row)
		}
	}
}

// TestReadDeltaNullPages reads chunks whose pages are all nulls, or all
// nulls but one value, in each encoding.
func TestReadDeltaNullPages(t *testing.T) {
	s := iceberg.MustSchema(0, opt(1, "i", iceberg.IntType{}), opt(2, "s", iceberg.StringType{}),
		opt(3, "t", iceberg.StringType{}), opt(4, "d", iceberg.DoubleType{}))
	profile := []parquet.WriterProperty{parquet.WithEncodingFor("i", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("s", parquet.Encodings.DeltaByteArray), parquet.WithEncodingFor("t", parquet.Encodings.DeltaLengthByteArray),
		parquet.WithEncodingFor("d", parquet.Encodings.ByteStreamSplit)}
	for _, every := range []int{0, 997} {
		rec := smallRecord(t, s,
			func(b array.Builder) { nullsBut(b, every, func(i int) { b.(*array.Int32Builder).Append(int32(i)) }) },
			func(b array.Builder) {
				nullsBut(b, every, func(i int) { b.(*array.StringBuilder).Append(fmt.Sprint(i)) })
			},
			func(b array.Builder) {
				nullsBut(b, every, func(i int) { b.(*array.StringBuilder).Append(fmt.Sprint(i)) })
			},
			func(b array.Builder) {
				nullsBut(b, every, func(i int) { b.(*array.Float64Builder).Append(float64(i)) })
			})
		for _, v2 := range []bool{false, true} {
			data := writeDeltaFile(t, rec, profile, v2, compress.Codecs.Snappy)
			checkDirectOnly(t, data, s)
			tbl := readAll(t, data, s, ReadOptions{BatchSize: 500})
			for i, f := range s.Fields() {
				sameValues(t, f.Name, rec.Column(i), column(t, tbl, i))
			}
			tbl.Release()
		}
		rec.Release()
	}
}
