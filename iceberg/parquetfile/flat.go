package parquetfile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
)

// appendFlat is the bulk path for a top-level primitive column: values are
// copied from the Arrow buffers and definition levels come from the
// validity bitmap, without per-value dispatch.
func (l *leafColumn) appendFlat(arr arrow.Array, from, to int, optional bool) error {
	p := &l.cw.page
	n := to - from
	hasNulls := arr.NullN() > 0
	if optional {
		start := len(p.def)
		p.def = grow(p.def, n)
		def := p.def[start:]
		if !hasNulls {
			for i := range def {
				def[i] = 1
			}
		} else {
			for i := range def {
				if arr.IsValid(from + i) {
					def[i] = 1
				} else {
					def[i] = 0
				}
			}
		}
	}
	p.entries += n
	switch a := arr.(type) {
	case *array.Int64:
		p.i64 = appendValid(p.i64, a.Int64Values()[from:to], arr, from, hasNulls)
	case *array.Timestamp:
		p.i64 = appendValid(p.i64, castSlice[arrow.Timestamp, int64](a.TimestampValues()[from:to]), arr, from, hasNulls)
	case *array.Time64:
		p.i64 = appendValid(p.i64, castSlice[arrow.Time64, int64](a.Time64Values()[from:to]), arr, from, hasNulls)
	case *array.Int32:
		p.i32 = appendValid(p.i32, a.Int32Values()[from:to], arr, from, hasNulls)
	case *array.Date32:
		p.i32 = appendValid(p.i32, castSlice[arrow.Date32, int32](a.Date32Values()[from:to]), arr, from, hasNulls)
	case *array.Float64:
		p.f64 = appendValid(p.f64, a.Float64Values()[from:to], arr, from, hasNulls)
	case *array.Float32:
		p.f32 = appendValid(p.f32, a.Float32Values()[from:to], arr, from, hasNulls)
	case *array.String:
		l.appendOffsets(a.ValueOffsets(), a.ValueBytes(), arr, from, to, hasNulls)
	case *array.Binary:
		l.appendOffsets(a.ValueOffsets(), a.ValueBytes(), arr, from, to, hasNulls)
	default:
		for i := from; i < to; i++ {
			if hasNulls && arr.IsNull(i) {
				continue
			}
			if err := l.appendValue(arr, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendOffsets bulk-copies byte-array values: nulls occupy no bytes in
// Arrow, so the data of the range is one contiguous slice. offs are the
// array's offsets (absolute), data its bytes from offs[0].
func (l *leafColumn) appendOffsets(offs []int32, data []byte, arr arrow.Array, from, to int, hasNulls bool) {
	p := &l.cw.page
	base := uint32(len(p.bin)) - uint32(offs[from])
	p.bin = append(p.bin, data[offs[from]-offs[0]:offs[to]-offs[0]]...)
	if !hasNulls {
		start := len(p.off)
		p.off = grow(p.off, to-from)
		out := p.off[start:]
		for i, o := range offs[from+1 : to+1] {
			out[i] = base + uint32(o)
		}
		return
	}
	for i := from; i < to; i++ {
		if arr.IsValid(i) {
			p.off = append(p.off, base+uint32(offs[i+1]))
		}
	}
}

// appendValid appends vals (rows from..) to dst, skipping nulls.
func appendValid[T any](dst, vals []T, arr arrow.Array, from int, hasNulls bool) []T {
	if !hasNulls {
		return append(dst, vals...)
	}
	for i, v := range vals {
		if arr.IsValid(from + i) {
			dst = append(dst, v)
		}
	}
	return dst
}

// grow extends s by n elements (contents unspecified).
func grow[T any](s []T, n int) []T {
	if cap(s)-len(s) < n {
		ns := make([]T, len(s), 2*cap(s)+n)
		copy(ns, s)
		s = ns
	}
	return s[:len(s)+n]
}

// checkDecimals rejects decimals that do not fit their column's precision
// before anything of the batch is buffered.
func checkDecimals(arr arrow.Array, fieldID int, t iceberg.Type) error {
	switch t := t.(type) {
	case iceberg.DecimalType:
		a, ok := arr.(*array.Decimal128)
		if !ok {
			return nil
		}
		for i := 0; i < a.Len(); i++ {
			if a.IsValid(i) && !a.Value(i).FitsInPrecision(int32(t.Precision)) {
				return fmt.Errorf("%w: decimal %s does not fit precision %d (column %d)", iceberg.ErrTypeMismatch, a.Value(i).ToString(0), t.Precision, fieldID)
			}
		}
	case *iceberg.StructType:
		st, ok := arr.(*array.Struct)
		if !ok {
			return nil
		}
		for k, f := range t.FieldList {
			if err := checkDecimals(st.Field(k), f.ID, f.Type); err != nil {
				return err
			}
		}
	case *iceberg.ListType:
		if la, ok := arr.(*array.List); ok {
			return checkDecimals(la.ListValues(), t.ElementID, t.Element)
		}
	case *iceberg.MapType:
		if ma, ok := arr.(*array.Map); ok {
			if err := checkDecimals(ma.Keys(), t.KeyID, t.Key); err != nil {
				return err
			}
			return checkDecimals(ma.Items(), t.ValueID, t.Value)
		}
	}
	return nil
}
