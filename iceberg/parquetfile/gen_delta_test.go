package parquetfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	pgo "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// deltaProfiles choose an encoding per column of flatTypesSchema: every
// DELTA_* and BYTE_STREAM_SPLIT encoding arrow-go writes, on every
// physical type it writes it for.
func deltaProfiles() map[string][]parquet.WriterProperty {
	enc := func(e parquet.Encoding, cols ...string) []parquet.WriterProperty {
		var out []parquet.WriterProperty
		for _, c := range cols {
			out = append(out, parquet.WithEncodingFor(c, e))
		}
		return out
	}
	return map[string][]parquet.WriterProperty{
		"delta-binary+length": append(append(
			enc(parquet.Encodings.DeltaBinaryPacked, "int", "date", "z_long", "time", "ts", "tstz"),
			enc(parquet.Encodings.DeltaLengthByteArray, "str", "bin")...),
			enc(parquet.Encodings.ByteStreamSplit, "float", "double")...),
		"delta-byte-array+split": append(
			enc(parquet.Encodings.DeltaByteArray, "str", "bin"),
			enc(parquet.Encodings.ByteStreamSplit, "int", "date", "z_long", "ts", "float", "double", "fixed", "uuid", "dec9", "dec38")...),
	}
}

// deltaCodecs are every codec arrow-go writes.
var deltaCodecs = map[string]compress.Compression{
	"none": compress.Codecs.Uncompressed, "snappy": compress.Codecs.Snappy, "zstd": compress.Codecs.Zstd,
	"gzip": compress.Codecs.Gzip, "brotli": compress.Codecs.Brotli, "lz4raw": compress.Codecs.Lz4Raw,
}

// writeDeltaFile writes rec with pqarrow in the given profile: small
// pages (several per chunk), no dictionary.
func writeDeltaFile(t testing.TB, rec arrow.RecordBatch, profile []parquet.WriterProperty, v2 bool, codec compress.Compression) []byte {
	version := parquet.DataPageV1
	if v2 {
		version = parquet.DataPageV2
	}
	opts := append([]parquet.WriterProperty{parquet.WithDataPageSize(2 << 10), parquet.WithBatchSize(256),
		parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(version), parquet.WithCompression(codec)}, profile...)
	return writePqarrow(t, rec, parquet.NewWriterProperties(opts...), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
}

// sameDeltaValues is sameValues with decimals compared as numbers
// (their text form is slow to build).
func sameDeltaValues(t *testing.T, name string, want, got arrow.Array) {
	t.Helper()
	w, ok1 := want.(*array.Decimal128)
	g, ok2 := got.(*array.Decimal128)
	if !ok1 || !ok2 {
		sameValues(t, name, want, got)
		return
	}
	if w.Len() != g.Len() {
		t.Fatalf("%s: length %d, want %d", name, g.Len(), w.Len())
	}
	for i := range w.Len() {
		if w.IsNull(i) != g.IsNull(i) || w.IsValid(i) && w.Value(i) != g.Value(i) {
			t.Fatalf("%s row %d: got %s, want %s", name, i, g.ValueStr(i), w.ValueStr(i))
		}
	}
}

// checkDirectOnly decodes every page of every column chunk of data with
// directChunk, failing if any page would be left to parquet-go.
func checkDirectOnly(t *testing.T, data []byte, s *iceberg.Schema) {
	t.Helper()
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	for g, rg := range r.file.RowGroups() {
		for _, f := range rr.flat {
			ref := chunkRef{r: r, group: g, cc: rg.ColumnChunks()[f.leaf.col.Index()]}
			if !directReadable(ref.meta()) {
				t.Fatalf("column %s: encodings %v not all decoded directly", f.leaf.col.Name(), ref.meta().Encoding)
			}
			d := newDirectChunk(ref, f.leaf, f.node)
			var c chunkData
			entries := 0
			for {
				n, err := d.claim(&c)
				if errors.Is(err, io.EOF) {
					break
				}
				if err == nil {
					err = d.decode(&c)
				}
				if err != nil {
					t.Fatalf("column %s: %v", f.leaf.col.Name(), err)
				}
				entries += n
			}
			c.dropPage()
			if int64(entries) != rg.NumRows() {
				t.Fatalf("column %s: %d entries in %d rows", f.leaf.col.Name(), entries, rg.NumRows())
			}
		}
	}
}

// spliceChunks joins two files of one column and one row group into
// one: the pages of b's chunk follow those of a's (b must have no
// dictionary page).
func spliceChunks(t *testing.T, a, b []byte) []byte {
	t.Helper()
	chunk := func(data []byte) ([]byte, *format.FileMetaData, int64) {
		f, err := pgo.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		md := f.Metadata()
		m := md.RowGroups[0].Columns[0].MetaData
		start := m.DataPageOffset
		if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
			start = m.DictionaryPageOffset
		}
		return data[start : start+m.TotalCompressedSize], md, start
	}
	ca, ma, startA := chunk(a)
	cb, mb, _ := chunk(b)
	if mb.RowGroups[0].Columns[0].MetaData.DictionaryPageOffset > 0 {
		t.Fatal("second file has a dictionary")
	}
	md := *ma
	rg := md.RowGroups[0]
	col := rg.Columns[0]
	m, mbc := col.MetaData, mb.RowGroups[0].Columns[0].MetaData
	shift := 4 - startA
	m.DataPageOffset += shift
	if m.DictionaryPageOffset > 0 {
		m.DictionaryPageOffset += shift
	}
	m.NumValues += mbc.NumValues
	m.TotalCompressedSize += mbc.TotalCompressedSize
	m.TotalUncompressedSize += mbc.TotalUncompressedSize
	m.Encoding = append(m.Encoding, mbc.Encoding...)
	m.Statistics, m.EncodingStats = format.Statistics{}, nil
	col.MetaData, col.FileOffset = m, m.DataPageOffset
	col.OffsetIndexOffset, col.OffsetIndexLength, col.ColumnIndexOffset, col.ColumnIndexLength = 0, 0, 0, 0
	rg.Columns = []format.ColumnChunk{col}
	rg.NumRows += mb.RowGroups[0].NumRows
	rg.TotalByteSize += mb.RowGroups[0].TotalByteSize
	rg.TotalCompressedSize = m.TotalCompressedSize
	rg.FileOffset = col.FileOffset
	md.RowGroups = []format.RowGroup{rg}
	md.NumRows = rg.NumRows
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte("PAR1"), ca...)
	out = append(out, cb...)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// withoutDeltaDecoding leaves the DELTA_* and BYTE_STREAM_SPLIT encodings
// to parquet-go until the returned function restores them (tests and
// benchmarks: nothing may be reading meanwhile).
func withoutDeltaDecoding() func() {
	encs := []format.Encoding{format.DeltaBinaryPacked, format.DeltaLengthByteArray, format.DeltaByteArray, format.ByteStreamSplit}
	for _, e := range encs {
		delete(directEncodings, e)
	}
	return func() {
		for _, e := range encs {
			directEncodings[e] = true
		}
	}
}

// deltaRow is a row parquet-go writes in DELTA_* encodings: the fixed
// column in DELTA_BYTE_ARRAY, which arrow-go does not write.
type deltaRow struct {
	U [4]byte `parquet:"u,id(1),delta"`
	S string  `parquet:"s,id(2),delta"`
	L int64   `parquet:"l,id(3),delta"`
}

// nullsBut appends 3000 entries to b: nulls, but for every every-th
// (none when every is 0), which gets value.
func nullsBut(b array.Builder, every int, value func(i int)) {
	for i := range 3000 {
		if every > 0 && i%every == 0 {
			value(i)
		} else {
			b.AppendNull()
		}
	}
}
