package parquetfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Page indexes (Parquet PageIndex.md): per column chunk an OffsetIndex
// (where each data page starts, its size and first row) and a ColumnIndex
// (each page's bounds and null count), so that readers skip pages within
// a row group. Both are written after the last row group, before the
// footer, as parquet-mr and Arrow do.

// columnIndexTruncate bounds BYTE_ARRAY page bounds in the column index,
// as parquet-mr's parquet.columnindex.truncate.length default.
const columnIndexTruncate = 64

// pageIndexer collects one column chunk's page index entries as its data
// pages are encoded.
type pageIndexer struct {
	// bounded: the column's order is defined, so a ColumnIndex is kept
	bounded bool
	// discarded: a page had values but no bounds (only NaNs), which a
	// ColumnIndex cannot express; the chunk gets none
	discarded  bool
	utf8       bool // string column: truncate at code point boundaries
	locs       []format.PageLocation
	nullPages  []bool
	mins, maxs [][]byte
	nullCounts []int64
	rows       int64
}

func (x *pageIndexer) reset() {
	x.discarded = false
	x.locs, x.nullPages, x.nullCounts = x.locs[:0], x.nullPages[:0], x.nullCounts[:0]
	x.mins, x.maxs = nil, nil
	x.rows = 0
}

// addPage records a data page that starts at offset within the chunk's
// data pages and spans size bytes (header included). lo and hi are its
// PLAIN-encoded bounds (ok false when it has none).
func (x *pageIndexer) addPage(offset, size int, rows, nulls int64, values int, lo, hi []byte, ok bool) {
	x.locs = append(x.locs, format.PageLocation{Offset: int64(offset), CompressedPageSize: int32(size), FirstRowIndex: x.rows})
	x.rows += rows
	if !x.bounded || x.discarded {
		return
	}
	switch {
	case values == 0:
		x.nullPages = append(x.nullPages, true)
		x.mins, x.maxs = append(x.mins, []byte{}), append(x.maxs, []byte{})
	case ok:
		x.nullPages = append(x.nullPages, false)
		x.mins, x.maxs = append(x.mins, lo), append(x.maxs, hi)
	default:
		x.discarded = true
		return
	}
	x.nullCounts = append(x.nullCounts, nulls)
}

// truncateBounds shortens long BYTE_ARRAY bounds: the lower to a prefix,
// the upper to a prefix rounded up (kept whole when no shorter value is
// greater).
func (x *pageIndexer) truncateBounds(lo, hi []byte) ([]byte, []byte) {
	n := columnIndexTruncate
	if len(lo) > n {
		cut := n
		if x.utf8 && utf8.Valid(lo) {
			for cut > 0 && !utf8.RuneStart(lo[cut]) {
				cut--
			}
		}
		lo = lo[:cut]
	}
	if len(hi) > n {
		if x.utf8 && utf8.Valid(hi) {
			cut := n
			for cut > 0 && !utf8.RuneStart(hi[cut]) {
				cut--
			}
			if up, ok := iceberg.TruncateUpperBound(string(hi), utf8.RuneCount(hi[:cut])); ok {
				return lo, []byte(up.(string))
			}
			return lo, hi
		}
		if up, ok := iceberg.TruncateUpperBound(hi, n); ok {
			return lo, up.([]byte)
		}
	}
	return lo, hi
}

// chunkPageIndex is a written chunk's serialised indexes; column is nil
// when the chunk has no ColumnIndex.
type chunkPageIndex struct {
	column, offset []byte
}

// build serialises the chunk's indexes, its data pages starting at
// dataOffset in the file.
func (x *pageIndexer) build(dataOffset int64, kind format.Type, signedBE bool) (chunkPageIndex, error) {
	var out chunkPageIndex
	locs := make([]format.PageLocation, len(x.locs))
	for i, l := range x.locs {
		l.Offset += dataOffset
		locs[i] = l
	}
	oi := format.OffsetIndex{PageLocations: locs}
	var err error
	if out.offset, err = thrift.Marshal(new(thrift.CompactProtocol), &oi); err != nil {
		return out, fmt.Errorf("parquetfile: encoding offset index: %w", err)
	}
	if !x.bounded || x.discarded || len(x.nullPages) == 0 {
		return out, nil
	}
	ci := format.ColumnIndex{
		NullPages: x.nullPages, MinValues: x.mins, MaxValues: x.maxs, NullCounts: x.nullCounts,
		BoundaryOrder: boundaryOrder(x.nullPages, x.mins, x.maxs, kind, signedBE),
	}
	if out.column, err = thrift.Marshal(new(thrift.CompactProtocol), &ci); err != nil {
		return out, fmt.Errorf("parquetfile: encoding column index: %w", err)
	}
	return out, nil
}

// boundaryOrder is ASCENDING when the bounds of the non-null pages never
// decrease, DESCENDING when they never increase (one page is ascending),
// else UNORDERED.
func boundaryOrder(nullPages []bool, mins, maxs [][]byte, kind format.Type, signedBE bool) format.BoundaryOrder {
	asc, desc, prev, seen := true, true, 0, false
	for i, null := range nullPages {
		if null {
			continue
		}
		if seen {
			lo, hi := comparePlain(kind, signedBE, mins[prev], mins[i]), comparePlain(kind, signedBE, maxs[prev], maxs[i])
			asc = asc && lo <= 0 && hi <= 0
			desc = desc && lo >= 0 && hi >= 0
		}
		prev, seen = i, true
	}
	switch {
	case !seen:
		return format.Unordered
	case asc:
		return format.Ascending
	case desc:
		return format.Descending
	}
	return format.Unordered
}

// comparePlain compares two PLAIN-encoded values of a physical type in
// the column's order.
func comparePlain(kind format.Type, signedBE bool, a, b []byte) int {
	switch kind {
	case format.Boolean:
		return int(a[0]) - int(b[0])
	case format.Int32:
		return cmp3(int32(binary.LittleEndian.Uint32(a)), int32(binary.LittleEndian.Uint32(b)))
	case format.Int64:
		return cmp3(int64(binary.LittleEndian.Uint64(a)), int64(binary.LittleEndian.Uint64(b)))
	case format.Float:
		return cmp3(math.Float32frombits(binary.LittleEndian.Uint32(a)), math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case format.Double:
		return cmp3(math.Float64frombits(binary.LittleEndian.Uint64(a)), math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
	if signedBE && len(a) > 0 && len(b) > 0 && (a[0]^b[0])&0x80 != 0 {
		if a[0]&0x80 != 0 {
			return -1
		}
		return 1
	}
	return bytes.Compare(a, b)
}

func cmp3[T int32 | int64 | float32 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// hasColumnOrder reports whether a leaf's values have a defined order, so
// that a ColumnIndex can bound them: not geospatial values (order
// undefined in the spec), nor a variant's parts.
func hasColumnOrder(l *leafColumn, order format.ColumnOrder) bool {
	if _, ok := order.Value.(*format.TypeDefinedOrder); !ok {
		return false
	}
	return l.fieldID > 0 && !iceberg.IsGeo(l.typ)
}
