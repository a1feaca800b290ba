package parquetfile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
	"github.com/parquet-go/parquet-go/encoding/delta"
)

// deltaBenchFile writes the benchmark rows as Spark's and DuckDB's
// Parquet v2 writers lay them out: DELTA_BINARY_PACKED integers and
// timestamps, DELTA_BYTE_ARRAY and DELTA_LENGTH_BYTE_ARRAY strings,
// BYTE_STREAM_SPLIT doubles, no dictionary, v2 pages.
func deltaBenchFile(b *testing.B, codec compress.Compression) []byte {
	rec := benchRecord(b)
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithCompression(codec),
		parquet.WithDataPageVersion(parquet.DataPageV2),
		parquet.WithEncodingFor("id", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("name", parquet.Encodings.DeltaByteArray),
		parquet.WithEncodingFor("category", parquet.Encodings.DeltaLengthByteArray),
		parquet.WithEncodingFor("ts", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("amount", parquet.Encodings.ByteStreamSplit))
	return writePqarrow(b, rec, props, pqarrow.DefaultWriterProps())
}

// BenchmarkScanDelta reads every column of a file of DELTA_* and
// BYTE_STREAM_SPLIT pages.
func BenchmarkScanDelta(b *testing.B) {
	for _, codec := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Zstd} {
		b.Run(codec.String(), func(b *testing.B) {
			data := deltaBenchFile(b, codec)
			benchScanPair(b,
				func(b *testing.B) int64 { return scanIcesql(b, data, benchSchema(), ReadOptions{}) },
				func(b *testing.B) int64 { return scanPqarrow(b, data, nil, nil) }, benchRows)
			// The same read with these encodings left to parquet-go, as
			// before they were decoded directly.
			b.Run("icesql-parquet-go", func(b *testing.B) {
				defer withoutDeltaDecoding()()
				cpu := startCPU()
				for b.Loop() {
					if n := scanIcesql(b, data, benchSchema(), ReadOptions{}); n != benchRows {
						b.Fatalf("read %d rows", n)
					}
				}
				cpu.report(b)
				reportRows(b, benchRows)
			})
		})
	}
}

// BenchmarkDecodeDelta measures the decoders alone on a page's worth of
// values (values/s).
func BenchmarkDecodeDelta(b *testing.B) {
	const n = 64 << 10
	r := rand.New(rand.NewPCG(1, 2))
	ints := make([]int64, n)
	floats := make([]float64, n)
	var flat []byte
	offs := []uint32{0}
	for i := range n {
		ints[i] = 1_700_000_000_000_000 + int64(i)*1000 + r.Int64N(1000)
		floats[i] = float64(r.IntN(100000)) / 100
		flat = fmt.Appendf(flat, "customer-%07d", r.IntN(n))
		offs = append(offs, uint32(len(flat)))
	}
	dbp, _ := new(delta.BinaryPackedEncoding).EncodeInt64(nil, ints)
	dba, _ := new(delta.ByteArrayEncoding).EncodeByteArray(nil, flat, offs)
	dlba, _ := new(delta.LengthByteArrayEncoding).EncodeByteArray(nil, flat, offs)
	bss, _ := new(bytestreamsplit.Encoding).EncodeDouble(nil, floats)
	bss4 := make([]byte, 4*n)
	for i := range n {
		v := math.Float32bits(float32(floats[i]))
		for k := range 4 {
			bss4[k*n+i] = byte(v >> (8 * k))
		}
	}
	out := make([]int64, n)
	outBytes := make([]byte, 8*n)
	var off []int32
	buf := make([]byte, len(flat)+deltaCopySlack)
	cases := []struct {
		name string
		run  func() error
	}{
		{"binary-packed", func() error { _, err := decodeDeltaBinary(dbp, out); return err }},
		{"byte-array", func() error {
			var err error
			_, off, err = decodeDeltaByteArray(dba, n, off, 1<<30, 0, func(int) []byte { return buf })
			return err
		}},
		{"length-byte-array", func() error {
			var err error
			_, off, err = decodeDeltaLengthBytes(dlba, n, off)
			return err
		}},
		{"byte-stream-split", func() error { return decodeByteStreamSplit(bss, n, 8, outBytes) }},
		{"byte-stream-split-float", func() error { return decodeByteStreamSplit(bss4, n, 4, outBytes) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			cpu := startCPU()
			for b.Loop() {
				if err := tc.run(); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
		})
	}
}
