package arrowschema

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/icesql/icesql/iceberg"
)

// CastRecord converts rec, whose columns correspond by position to target's
// fields, to target's types. Allowed conversions are identity, int32->int64,
// float32->float64, decimal widening at the same scale, the large/view
// string and binary forms to their plain form, and FixedSizeBinary(16) to
// uuid. A null in a non-nullable
// column (at any depth) is a *ColumnError wrapping iceberg.ErrNotNullViolation.
// The result holds its own references; release it when done.
func CastRecord(ctx context.Context, rec arrow.RecordBatch, target *arrow.Schema) (arrow.RecordBatch, error) {
	if int(rec.NumCols()) != target.NumFields() {
		return nil, fmt.Errorf("%w: record has %d columns, table has %d", iceberg.ErrTypeMismatch, rec.NumCols(), target.NumFields())
	}
	cols := make([]arrow.Array, 0, target.NumFields())
	release := func() {
		for _, c := range cols {
			c.Release()
		}
	}
	for i, tf := range target.Fields() {
		col := rec.Column(i)
		if err := checkNulls(col, tf, tf.Name); err != nil {
			release()
			return nil, err
		}
		out, err := castArray(ctx, col, tf.Type)
		if err != nil {
			release()
			return nil, &ColumnError{Column: tf.Name, Err: err}
		}
		cols = append(cols, out)
	}
	out := array.NewRecordBatch(target, cols, rec.NumRows())
	release()
	return out, nil
}

func castArray(ctx context.Context, col arrow.Array, to arrow.DataType) (arrow.Array, error) {
	if arrow.TypeEqual(col.DataType(), to) {
		col.Retain()
		return col, nil
	}
	if !castAllowed(col.DataType(), to) {
		return nil, fmt.Errorf("%w: cannot write %v as %v", iceberg.ErrTypeMismatch, col.DataType(), to)
	}
	if sameLayout(col.DataType(), to) {
		// Only field names or metadata differ: re-type the same buffers.
		return array.MakeFromData(retype(col.Data(), to)), nil
	}
	return compute.CastArray(ctx, col, compute.SafeCastOptions(to))
}

// castAllowed mirrors Iceberg's write-time promotions, recursing through
// nested types. A uuid column also takes plain FixedSizeBinary(16), the
// form writers without the arrow.uuid extension type use.
func castAllowed(from, to arrow.DataType) bool {
	if IsUUID(to) {
		f, ok := from.(*arrow.FixedSizeBinaryType)
		return IsUUID(from) || ok && f.ByteWidth == 16
	}
	switch t := to.(type) {
	case *arrow.Int64Type:
		return from.ID() == arrow.INT32 || from.ID() == arrow.INT64
	case *arrow.Float64Type:
		return from.ID() == arrow.FLOAT32 || from.ID() == arrow.FLOAT64
	case *arrow.Decimal128Type:
		f, ok := from.(*arrow.Decimal128Type)
		return ok && f.Scale == t.Scale && f.Precision <= t.Precision
	case *arrow.StringType:
		switch from.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return true
		}
		return false
	case *arrow.BinaryType:
		switch from.ID() {
		case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
			return true
		}
		return false
	case *arrow.TimestampType:
		f, ok := from.(*arrow.TimestampType)
		return ok && f.Unit == t.Unit && (f.TimeZone == "") == (t.TimeZone == "")
	case *arrow.StructType:
		f, ok := from.(*arrow.StructType)
		if !ok || f.NumFields() != t.NumFields() {
			return false
		}
		for i := range t.Fields() {
			if !castAllowed(f.Field(i).Type, t.Field(i).Type) {
				return false
			}
		}
		return true
	case *arrow.ListType:
		f, ok := from.(*arrow.ListType)
		return ok && castAllowed(f.Elem(), t.Elem())
	case *arrow.MapType:
		f, ok := from.(*arrow.MapType)
		return ok && castAllowed(f.KeyType(), t.KeyType()) && castAllowed(f.ItemType(), t.ItemType())
	}
	return arrow.TypeEqual(from, to)
}

// sameLayout reports whether from and to differ only in names, nullability
// flags, metadata or timestamp zone (same buffers, same physical types).
func sameLayout(from, to arrow.DataType) bool {
	if IsUUID(to) { // uuid storage is FixedSizeBinary(16) (castAllowed checked)
		return true
	}
	if from.ID() != to.ID() {
		return false
	}
	switch t := to.(type) {
	case *arrow.Decimal128Type:
		f := from.(*arrow.Decimal128Type)
		return f.Precision == t.Precision && f.Scale == t.Scale
	case *arrow.StructType:
		f := from.(*arrow.StructType)
		for i := range t.Fields() {
			if !sameLayout(f.Field(i).Type, t.Field(i).Type) {
				return false
			}
		}
		return true
	case *arrow.ListType:
		return sameLayout(from.(*arrow.ListType).Elem(), t.Elem())
	case *arrow.MapType:
		f := from.(*arrow.MapType)
		return sameLayout(f.KeyType(), t.KeyType()) && sameLayout(f.ItemType(), t.ItemType())
	case *arrow.FixedSizeBinaryType:
		return from.(*arrow.FixedSizeBinaryType).ByteWidth == t.ByteWidth
	}
	return true
}

func retype(d arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	var children []arrow.ArrayData
	switch t := to.(type) {
	case *arrow.StructType:
		for i, c := range d.Children() {
			children = append(children, retype(c, t.Field(i).Type))
		}
	case *arrow.ListType:
		children = []arrow.ArrayData{retype(d.Children()[0], t.Elem())}
	case *arrow.MapType:
		children = []arrow.ArrayData{retype(d.Children()[0], t.Elem())}
	default:
		for _, c := range d.Children() {
			c.Retain()
			children = append(children, c)
		}
	}
	out := array.NewData(to, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

// checkNulls reports a null in a non-nullable field. Children are checked
// only where their parent is valid (a null struct's children are padding).
func checkNulls(col arrow.Array, f arrow.Field, path string) error {
	if !f.Nullable && col.NullN() > 0 {
		return &ColumnError{Column: path, Err: iceberg.ErrNotNullViolation}
	}
	switch a := col.(type) {
	case *array.Struct:
		st := f.Type.(*arrow.StructType)
		for i, cf := range st.Fields() {
			child := a.Field(i)
			if cf.Nullable || child.NullN() == 0 {
				if err := checkNulls(child, cf, path+"."+cf.Name); err != nil {
					return err
				}
				continue
			}
			for r := 0; r < a.Len(); r++ {
				if a.IsValid(r) && child.IsNull(r) {
					return &ColumnError{Column: path + "." + cf.Name, Err: iceberg.ErrNotNullViolation}
				}
			}
			if err := checkNulls(child, arrow.Field{Name: cf.Name, Type: cf.Type, Nullable: true}, path+"."+cf.Name); err != nil {
				return err
			}
		}
	case *array.Map:
		mt := f.Type.(*arrow.MapType)
		if err := checkNulls(a.Keys(), mt.KeyField(), path+".key"); err != nil {
			return err
		}
		return checkNulls(a.Items(), mt.ItemField(), path+".value")
	case *array.List:
		lt := f.Type.(*arrow.ListType)
		return checkNulls(a.ListValues(), lt.ElemField(), path+".element")
	}
	return nil
}
