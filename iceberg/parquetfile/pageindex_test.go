package parquetfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg/arrowschema"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// chunkPages are a column chunk's levels and PLAIN-encoded non-null values,
// split by data page as read back by arrow-go.
type chunkPages struct {
	entries []int    // levels per data page
	def     []int16  // all levels of the chunk
	rep     []int16  // nil when the column is not repeated
	values  [][]byte // non-null values, PLAIN
	kind    format.Type
	signed  bool // decimals in FIXED_LEN_BYTE_ARRAY: signed order
}

func readChunkPages(t *testing.T, rg *file.RowGroupReader, col int) chunkPages {
	t.Helper()
	pr, err := rg.GetColumnPageReader(col)
	if err != nil {
		t.Fatal(err)
	}
	var cp chunkPages
	for pr.Next() {
		if p, ok := pr.Page().(*file.DataPageV1); ok {
			cp.entries = append(cp.entries, int(p.NumValues()))
		}
	}
	if err := pr.Err(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, n := range cp.entries {
		total += n
	}
	cr, err := rg.Column(col)
	if err != nil {
		t.Fatal(err)
	}
	cp.def, cp.rep = make([]int16, total), make([]int16, total)
	read := func(n int, err error) int {
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	var nv int
	switch r := cr.(type) {
	case *file.BooleanColumnChunkReader:
		cp.kind = format.Boolean
		v := make([]bool, total)
		_, nv, err = r.ReadBatch(int64(total), v, cp.def, cp.rep)
		for _, x := range v[:read(nv, err)] {
			b := byte(0)
			if x {
				b = 1
			}
			cp.values = append(cp.values, []byte{b})
		}
	case *file.Int32ColumnChunkReader:
		cp.kind = format.Int32
		v := make([]int32, total)
		_, nv, err = r.ReadBatch(int64(total), v, cp.def, cp.rep)
		for _, x := range v[:read(nv, err)] {
			cp.values = append(cp.values, binary.LittleEndian.AppendUint32(nil, uint32(x)))
		}
	case *file.Int64ColumnChunkReader:
		cp.kind = format.Int64
		v := make([]int64, total)
		_, nv, err = r.ReadBatch(int64(total), v, cp.def, cp.rep)
		for _, x := range v[:read(nv, err)] {
			cp.values = append(cp.values, binary.LittleEndian.AppendUint64(nil, uint64(x)))
		}
	case *file.Float32ColumnChunkReader:
		cp.kind = format.Float
		v := make([]float32, total)
		_, nv, err = r.ReadBatch(int64(total), v, cp.def, cp.rep)
		for _, x := range v[:read(nv, err)] {
			cp.values = append(cp.values, binary.LittleEndian.AppendUint32(nil, math.Float32bits(x)))
		}
	case *file.Float64ColumnChunkReader:
		cp.kind = format.Double
		v := make([]float64, total)
		_, nv, err = r.ReadBatch(int64(total), v, cp.def, cp.rep)
		for _, x := range v[:read(nv, err)] {
			cp.values = append(cp.values, binary.LittleEndian.AppendUint64(nil, math.Float64bits(x)))
		}
	case *file.ByteArrayColumnChunkReader:
		cp.kind = format.ByteArray
		v := make([]parquet.ByteArray, total)
		_, nv, err = r.ReadBatch(int64(total), v, cp.def, cp.rep)
		for _, x := range v[:read(nv, err)] {
			cp.values = append(cp.values, append([]byte{}, x...))
		}
	case *file.FixedLenByteArrayColumnChunkReader:
		cp.kind = format.FixedLenByteArray
		v := make([]parquet.FixedLenByteArray, total)
		_, nv, err = r.ReadBatch(int64(total), v, cp.def, cp.rep)
		for _, x := range v[:read(nv, err)] {
			cp.values = append(cp.values, append([]byte{}, x...))
		}
	default:
		t.Fatalf("column %d: reader %T", col, cr)
	}
	return cp
}

func isNaNPlain(kind format.Type, v []byte) bool {
	switch kind {
	case format.Float:
		return math.IsNaN(float64(math.Float32frombits(binary.LittleEndian.Uint32(v))))
	case format.Double:
		return math.IsNaN(math.Float64frombits(binary.LittleEndian.Uint64(v)))
	}
	return false
}

// checkPageIndexes checks every page index entry of the file against its
// pages, as arrow-go reads them.
func checkPageIndexes(t *testing.T, data []byte, s *iceberg.Schema) (columnIndexes int) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	pir := pf.GetPageIndexReader()
	for g := range pf.NumRowGroups() {
		rg := pf.RowGroup(g)
		rgi, err := pir.RowGroup(g)
		if err != nil {
			t.Fatal(err)
		}
		for col := range rg.NumColumns() {
			descr := pf.MetaData().Schema.Column(col)
			name := descr.Path()
			cc, err := rg.MetaData().ColumnChunk(col)
			if err != nil {
				t.Fatal(err)
			}
			cp := readChunkPages(t, rg, col)
			cp.signed = descr.ConvertedType() == schema.ConvertedTypes.Decimal
			oi, err := rgi.GetOffsetIndex(col)
			if err != nil || oi == nil {
				t.Fatalf("%s: offset index %v, %v", name, oi, err)
			}
			locs := oi.GetPageLocations()
			if len(locs) != len(cp.entries) {
				t.Fatalf("%s: %d page locations for %d pages", name, len(locs), len(cp.entries))
			}
			// Pages are contiguous from the first data page to the chunk's end.
			next := cc.DataPageOffset()
			chunkEnd := cc.FileOffset()
			if cc.HasDictionaryPage() {
				chunkEnd = cc.DictionaryPageOffset()
			}
			chunkEnd += cc.TotalCompressedSize()
			for i, l := range locs {
				if l.Offset != next {
					t.Fatalf("%s page %d: offset %d, want %d", name, i, l.Offset, next)
				}
				var h format.PageHeader
				rd := new(thrift.CompactProtocol).NewReaderFromBytes(data[l.Offset:])
				if err := thrift.NewDecoder(rd).Decode(&h); err != nil {
					t.Fatalf("%s page %d: header: %v", name, i, err)
				}
				hn := rd.(interface{ BytesRead() int }).BytesRead()
				if h.Type != format.DataPage || int32(hn)+h.CompressedPageSize != l.CompressedPageSize {
					t.Fatalf("%s page %d: header %v of %d bytes + %d, location size %d", name, i, h.Type, hn, h.CompressedPageSize, l.CompressedPageSize)
				}
				next += int64(l.CompressedPageSize)
			}
			if next != chunkEnd {
				t.Fatalf("%s: pages end at %d, chunk at %d", name, next, chunkEnd)
			}
			ci, err := rgi.GetColumnIndex(col)
			if err != nil {
				t.Fatal(err)
			}
			if ci != nil {
				columnIndexes++
				if len(ci.GetNullPages()) != len(cp.entries) || !ci.IsSetNullCounts() {
					t.Fatalf("%s: column index of %d pages, null counts %v", name, len(ci.GetNullPages()), ci.IsSetNullCounts())
				}
			}
			// Walk the pages: first rows, null counts, bounds.
			maxDef := int16(descr.MaxDefinitionLevel())
			pos, vpos, row := 0, 0, int64(0)
			var mins, maxs [][]byte
			var nulls []bool
			for i, n := range cp.entries {
				if locs[i].FirstRowIndex != row {
					t.Fatalf("%s page %d: first row %d, want %d", name, i, locs[i].FirstRowIndex, row)
				}
				var nullCount int64
				var lo, hi []byte
				for k := pos; k < pos+n; k++ {
					if descr.MaxRepetitionLevel() == 0 || cp.rep[k] == 0 {
						row++
					}
					if cp.def[k] < maxDef {
						nullCount++
						continue
					}
					v := cp.values[vpos]
					vpos++
					if isNaNPlain(cp.kind, v) {
						continue
					}
					if lo == nil || comparePlain(cp.kind, cp.signed, v, lo) < 0 {
						lo = v
					}
					if hi == nil || comparePlain(cp.kind, cp.signed, v, hi) > 0 {
						hi = v
					}
				}
				pos += n
				if ci == nil {
					continue
				}
				allNull := nullCount == int64(n)
				if ci.GetNullPages()[i] != allNull || ci.GetNullCounts()[i] != nullCount {
					t.Fatalf("%s page %d: null page %v count %d, want %v %d", name, i, ci.GetNullPages()[i], ci.GetNullCounts()[i], allNull, nullCount)
				}
				gotLo, gotHi := ci.GetMinValues()[i], ci.GetMaxValues()[i]
				if allNull {
					if len(gotLo) != 0 || len(gotHi) != 0 {
						t.Fatalf("%s page %d: null page with bounds", name, i)
					}
					continue
				}
				if lo == nil {
					t.Fatalf("%s page %d: column index of a page of NaNs", name, i)
				}
				checkBound(t, name, i, cp.kind, cp.signed, lo, gotLo, true)
				checkBound(t, name, i, cp.kind, cp.signed, hi, gotHi, false)
				mins, maxs, nulls = append(mins, gotLo), append(maxs, gotHi), append(nulls, false)
			}
			if vpos != len(cp.values) || pos != len(cp.def) {
				t.Fatalf("%s: %d of %d values, %d of %d levels", name, vpos, len(cp.values), pos, len(cp.def))
			}
			if ci != nil {
				if want := expectedOrder(cp.kind, cp.signed, mins, maxs); ci.GetBoundaryOrder() != want {
					t.Fatalf("%s: boundary order %v, want %v", name, ci.GetBoundaryOrder(), want)
				}
			}
		}
	}
	return columnIndexes
}

// checkBound checks a page bound against the page's actual min (or max):
// equal, or for long byte arrays a shorter value on the right side.
func checkBound(t *testing.T, name string, page int, kind format.Type, signed bool, want, got []byte, lower bool) {
	t.Helper()
	if kind == format.Float || kind == format.Double {
		var w, g float64
		if kind == format.Float {
			w, g = float64(math.Float32frombits(binary.LittleEndian.Uint32(want))), float64(math.Float32frombits(binary.LittleEndian.Uint32(got)))
		} else {
			w, g = math.Float64frombits(binary.LittleEndian.Uint64(want)), math.Float64frombits(binary.LittleEndian.Uint64(got))
		}
		// zeros: -0 as a min, +0 as a max (spec)
		if w != g || (g == 0 && math.Signbit(g) != lower) {
			t.Fatalf("%s page %d: bound %v, want %v (lower %v)", name, page, g, w, lower)
		}
		return
	}
	if bytes.Equal(want, got) {
		return
	}
	c := comparePlain(kind, signed, got, want)
	if kind != format.ByteArray || len(want) <= columnIndexTruncate || (lower && c > 0) || (!lower && c < 0) || len(got) > columnIndexTruncate+4 {
		t.Fatalf("%s page %d: bound %q, want %q (lower %v)", name, page, got, want, lower)
	}
}

// expectedOrder follows the spec's definition, independently of the writer.
func expectedOrder(kind format.Type, signed bool, mins, maxs [][]byte) metadata.BoundaryOrder {
	if len(mins) == 0 {
		return metadata.Unordered
	}
	asc, desc := true, true
	for i := 1; i < len(mins); i++ {
		a, b := comparePlain(kind, signed, mins[i-1], mins[i]), comparePlain(kind, signed, maxs[i-1], maxs[i])
		asc = asc && a <= 0 && b <= 0
		desc = desc && a >= 0 && b >= 0
	}
	switch {
	case asc:
		return metadata.Ascending
	case desc:
		return metadata.Descending
	}
	return metadata.Unordered
}

func TestPageIndexMatchesPages(t *testing.T) {
	s := allTypesSchema()
	rec := randomRecord(s, 3000, 11)
	defer rec.Release()
	cases := map[string]struct {
		opts      WriterOptions
		rowGroups int
	}{
		"row limit": {WriterOptions{PageRowLimit: 97, Concurrency: 1}, 1},
		"page size": {WriterOptions{PageSizeBytes: 2000}, 1},
		// Concurrency 1: where a row group is cut depends on how much of
		// it is encoded, which with background encoders depends on timing.
		"row groups":       {WriterOptions{PageRowLimit: 200, RowGroupSizeBytes: 100000, Compression: "snappy", Concurrency: 1}, 2},
		"one page a chunk": {WriterOptions{}, 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			data, _ := writeFile(t, s, tc.opts, rec)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if pf.NumRowGroups() < tc.rowGroups {
				t.Fatalf("%d row groups, want at least %d", pf.NumRowGroups(), tc.rowGroups)
			}
			if n := checkPageIndexes(t, data, s); n == 0 {
				t.Fatal("no column index written")
			}
			want := readWithPqarrow(t, data)
			defer want.Release()
			got := readAll(t, data, s, ReadOptions{})
			defer got.Release()
			for i := range int(want.NumCols()) {
				sameValues(t, want.Schema().Field(i).Name, column(t, want, i), column(t, got, i))
			}
		})
	}
}

// pageIndexRecord has 60 rows meant for 10-row pages: an ascending and a
// descending column, a double whose first page is only NaN, one with
// zeros, long strings with an all-null second page and binary values that
// cannot be rounded up.
func pageIndexRecord(t *testing.T, s *iceberg.Schema) arrow.RecordBatch {
	t.Helper()
	as, err := arrowschema.ToArrow(s)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for i := range 60 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Int32Builder).Append(int32(1000 - i))
		if i < 10 {
			b.Field(2).(*array.Float64Builder).Append(math.NaN())
		} else {
			b.Field(2).(*array.Float64Builder).Append(float64(i))
		}
		b.Field(3).(*array.Float64Builder).Append([]float64{0, 1, -1, math.Copysign(0, -1)}[i%4] * float64(i/10))
		switch {
		case i >= 10 && i < 20:
			b.Field(4).(*array.StringBuilder).AppendNull()
		case i%3 == 0:
			b.Field(4).(*array.StringBuilder).Append(strings.Repeat("é", 50) + string(rune('a'+i%26)))
		default:
			b.Field(4).(*array.StringBuilder).Append(strings.Repeat("x", 100) + string(rune('a'+i%26)))
		}
		b.Field(5).(*array.BinaryBuilder).Append(bytes.Repeat([]byte{0xff}, 70+i))
	}
	return b.NewRecordBatch()
}

func TestPageIndexEntries(t *testing.T) {
	s := iceberg.MustSchema(1,
		req(1, "asc", iceberg.LongType{}),
		req(2, "desc", iceberg.IntType{}),
		opt(3, "nan_page", iceberg.DoubleType{}),
		opt(4, "zeros", iceberg.DoubleType{}),
		opt(5, "str", iceberg.StringType{}),
		opt(6, "bin", iceberg.BinaryType{}),
	)
	rec := pageIndexRecord(t, s)
	defer rec.Release()
	data, _ := writeFile(t, s, WriterOptions{PageRowLimit: 10}, rec)
	if n := checkPageIndexes(t, data, s); n != 5 {
		t.Fatalf("%d column indexes, want 5 (none for the column with a NaN page)", n)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rgi, err := pf.GetPageIndexReader().RowGroup(0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		col       int
		order     metadata.BoundaryOrder
		nullPages []bool
	}{
		{0, metadata.Ascending, make([]bool, 6)},
		{1, metadata.Descending, make([]bool, 6)},
		{3, metadata.Unordered, make([]bool, 6)},
		// truncation makes the bounds of every page equal
		{4, metadata.Ascending, []bool{false, true, false, false, false, false}},
		{5, metadata.Ascending, make([]bool, 6)},
	}
	for _, tt := range tests {
		t.Run(s.Fields()[tt.col].Name, func(t *testing.T) {
			ci, err := rgi.GetColumnIndex(tt.col)
			if err != nil || ci == nil {
				t.Fatalf("column index %v, %v", ci, err)
			}
			if ci.GetBoundaryOrder() != tt.order {
				t.Errorf("boundary order %v, want %v", ci.GetBoundaryOrder(), tt.order)
			}
			if !slices.Equal(ci.GetNullPages(), tt.nullPages) {
				t.Errorf("null pages %v, want %v", ci.GetNullPages(), tt.nullPages)
			}
		})
	}
	t.Run("truncation", func(t *testing.T) {
		ci, _ := rgi.GetColumnIndex(4)
		for i, null := range ci.GetNullPages() {
			lo, hi := ci.GetMinValues()[i], ci.GetMaxValues()[i]
			if !null && (len(lo) > columnIndexTruncate || len(hi) > columnIndexTruncate || !utf8.Valid(lo) || !utf8.Valid(hi)) {
				t.Errorf("page %d: bounds %q, %q not truncated to valid UTF-8", i, lo, hi)
			}
		}
		// 0xff... has no shorter upper bound: kept whole
		ci, _ = rgi.GetColumnIndex(5)
		if hi := ci.GetMaxValues()[0]; len(hi) != 79 {
			t.Errorf("binary max of %d bytes, want the whole 79", len(hi))
		}
		if lo := ci.GetMinValues()[0]; len(lo) != columnIndexTruncate {
			t.Errorf("binary min of %d bytes, want %d", len(lo), columnIndexTruncate)
		}
	})
}

func TestComparePlain(t *testing.T) {
	le32 := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	f64 := func(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }
	tests := []struct {
		name   string
		kind   format.Type
		signed bool
		a, b   []byte
		want   int
	}{
		{"int32 signed", format.Int32, false, le32(-1), le32(1), -1},
		{"double", format.Double, false, f64(2.5), f64(-3), 1},
		{"zeros equal", format.Double, false, f64(math.Copysign(0, -1)), f64(0), 0},
		{"bytes unsigned", format.ByteArray, false, []byte{0x80}, []byte{0x7f}, 1},
		{"decimal signed", format.FixedLenByteArray, true, []byte{0x80, 0}, []byte{0x7f, 0}, -1},
		{"prefix first", format.ByteArray, false, []byte("ab"), []byte("abc"), -1},
		{"bool", format.Boolean, false, []byte{1}, []byte{0}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := comparePlain(tt.kind, tt.signed, tt.a, tt.b); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

// Geospatial and variant values have no defined order: their chunks get
// an offset index and no column index.
func TestPageIndexUnorderedColumns(t *testing.T) {
	geo := geoSchema()
	geoRec, _ := geoRecord(t, geo, []string{"POINT (1 2)", "", "LINESTRING (0 0, 3 4)", "POINT (5 6)", "POINT (-1 -2)"})
	defer geoRec.Release()
	vs := variantSchema()
	vRec := variantRecord(t, vs)
	defer vRec.Release()
	tests := []struct {
		name string
		s    *iceberg.Schema
		rec  arrow.RecordBatch
	}{
		{"geo", geo, geoRec},
		{"variant", vs, vRec},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, _ := writeFile(t, tt.s, WriterOptions{PageRowLimit: 2}, tt.rec)
			// only the id column has one; checkPageIndexes checks every
			// column's offset index
			if n := checkPageIndexes(t, data, tt.s); n != 1 {
				t.Fatalf("%d column indexes, want 1", n)
			}
		})
	}
}
