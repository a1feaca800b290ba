package parquetfile

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
)

// ColumnStats are one column chunk's footer statistics in Iceberg Go value
// form (of the projected type). Min and Max are nil when unknown.
type ColumnStats struct {
	Min, Max   any
	NullCount  int64
	ValueCount int64
	HasNulls   bool // NullCount is known
}

// rowGroupStats collects statistics for the projected leaves outside lists
// and maps.
func (rr *RecordReader) rowGroupStats(g parquet.RowGroup) map[int]ColumnStats {
	out := map[int]ColumnStats{}
	var walk func(n *rnode)
	walk = func(n *rnode) {
		switch n.kind {
		case kindStruct:
			for _, c := range n.children {
				walk(c)
			}
		case kindLeaf:
			if n.missing || n.field.ID <= 0 {
				return
			}
			cc, ok := g.ColumnChunks()[n.leaf.col.Index()].(*parquet.FileColumnChunk)
			if !ok {
				return
			}
			st := ColumnStats{ValueCount: cc.NumValues(), NullCount: cc.NullCount(), HasNulls: true}
			if lo, hi, ok := cc.Bounds(); ok {
				st.Min = statValue(lo, n.leaf, n.field.Type)
				st.Max = statValue(hi, n.leaf, n.field.Type)
				if st.Min == nil || st.Max == nil {
					st.Min, st.Max = nil, nil
				}
			}
			out[n.field.ID] = st
		}
	}
	for _, r := range rr.roots {
		if !r.missing {
			walk(r)
		}
	}
	return out
}

// statValue converts a footer min/max to the Go value form of t; nil when it
// cannot be trusted or converted.
func statValue(v parquet.Value, l *rleaf, t iceberg.Type) any {
	if v.IsNull() {
		return nil
	}
	switch t := t.(type) {
	case iceberg.BooleanType:
		return v.Boolean()
	case iceberg.IntType:
		return v.Int32()
	case iceberg.LongType:
		if v.Kind() == parquet.Int32 && l.unsigned {
			return int64(uint32(v.Int32()))
		}
		if v.Kind() == parquet.Int32 {
			return int64(v.Int32())
		}
		if IsUnsignedInt(l.col.Type()) {
			return nil // UINT64 orders as unsigned: no bound a long can state
		}
		return v.Int64()
	case iceberg.FloatType:
		f := v.Float()
		if math.IsNaN(float64(f)) {
			return nil
		}
		return f
	case iceberg.DoubleType:
		f := v.Double()
		if v.Kind() == parquet.Float {
			f = float64(v.Float())
		}
		if math.IsNaN(f) {
			return nil
		}
		return f
	case iceberg.DateType:
		return iceberg.Date(v.Int32())
	case iceberg.TimeType, iceberg.TimestampType, iceberg.TimestampTzType, iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		if v.Kind() != parquet.Int64 {
			return nil
		}
		x := v.Int64()
		if l.timeUnit > 0 {
			if x > math.MaxInt64/l.timeUnit || x < math.MinInt64/l.timeUnit {
				return nil // beyond the table type's range
			}
			x *= l.timeUnit
		} else {
			if x%-l.timeUnit != 0 {
				// a finer value than the column's unit: its rounded form is
				// no safe bound in both directions, so none is given
				return nil
			}
			x /= -l.timeUnit
		}
		switch t.(type) {
		case iceberg.TimeType:
			return iceberg.Time(x)
		case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
			return iceberg.TimestampNano(x)
		}
		return iceberg.Timestamp(x)
	case iceberg.StringType:
		return string(v.ByteArray())
	case iceberg.BinaryType, iceberg.FixedType:
		return append([]byte(nil), v.ByteArray()...)
	case iceberg.UUIDType:
		b := v.ByteArray()
		if len(b) != 16 {
			return nil
		}
		var u iceberg.UUID
		copy(u[:], b)
		return u
	case iceberg.DecimalType:
		var num decimal128.Num
		switch v.Kind() {
		case parquet.Int32:
			num = decimal128.FromI64(int64(v.Int32()))
		case parquet.Int64:
			num = decimal128.FromI64(v.Int64())
		default:
			b := v.ByteArray()
			if len(b) == 0 || len(b) > 16 {
				return nil
			}
			num = decimalFromBE(b)
		}
		return iceberg.Decimal{Unscaled: num, Scale: t.Scale}
	}
	return nil
}
