package parquetfile

import (
	"fmt"
	"reflect"

	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// pqNode is a parquet schema node that keeps its children in the order
// given and carries an optional field id; parquet.Group would sort fields
// by name and has no ids.
type pqNode struct {
	name     string
	id       int
	optional bool
	repeated bool
	typ      parquet.Type // leaf type, or the group's (list/map/plain) type
	fields   []parquet.Field
}

func (n *pqNode) ID() int                           { return n.id }
func (n *pqNode) String() string                    { return n.name }
func (n *pqNode) Type() parquet.Type                { return n.typ }
func (n *pqNode) Optional() bool                    { return n.optional }
func (n *pqNode) Repeated() bool                    { return n.repeated }
func (n *pqNode) Required() bool                    { return !n.optional && !n.repeated }
func (n *pqNode) Leaf() bool                        { return n.fields == nil }
func (n *pqNode) Fields() []parquet.Field           { return n.fields }
func (n *pqNode) Encoding() encoding.Encoding       { return nil }
func (n *pqNode) Compression() compress.Codec       { return nil }
func (n *pqNode) GoType() reflect.Type              { return reflect.TypeOf((*any)(nil)).Elem() }
func (n *pqNode) Name() string                      { return n.name }
func (n *pqNode) Value(reflect.Value) reflect.Value { return reflect.Value{} }

var (
	groupType = parquet.Group{}.Type()
	listType  = parquet.List(parquet.Leaf(parquet.Int32Type)).Type()
	mapType   = parquet.Map(parquet.String(), parquet.Leaf(parquet.Int32Type)).Type()
)

// parquetSchema builds the Parquet schema of an Iceberg schema, with field
// ids on every node that corresponds to an Iceberg field (spec Appendix A).
func parquetSchema(s *iceberg.Schema) (*parquet.Schema, error) {
	root := &pqNode{name: "table", typ: groupType, fields: []parquet.Field{}}
	for _, f := range s.Fields() {
		if omitted(f.Type) {
			continue
		}
		n, err := fieldNode(f.Name, f.ID, !f.Required, f.Type)
		if err != nil {
			return nil, err
		}
		root.fields = append(root.fields, n)
	}
	return parquet.NewSchema("table", root), nil
}

func fieldNode(name string, id int, optional bool, t iceberg.Type) (*pqNode, error) {
	n := &pqNode{name: compatibleName(name), id: id, optional: optional}
	switch t := t.(type) {
	case iceberg.VariantType:
		variantNode(n)
	case *iceberg.StructType:
		n.typ = groupType
		n.fields = []parquet.Field{}
		for _, f := range t.FieldList {
			if omitted(f.Type) {
				continue
			}
			c, err := fieldNode(f.Name, f.ID, !f.Required, f.Type)
			if err != nil {
				return nil, err
			}
			n.fields = append(n.fields, c)
		}
	case *iceberg.ListType:
		if omitted(t.Element) {
			return nil, fmt.Errorf("%w: field %q: a list of unknown cannot be stored in a data file", iceberg.ErrUnsupported, name)
		}
		elem, err := fieldNode("element", t.ElementID, !t.ElementRequired, t.Element)
		if err != nil {
			return nil, err
		}
		n.typ = listType
		n.fields = []parquet.Field{&pqNode{name: "list", repeated: true, typ: groupType, fields: []parquet.Field{elem}}}
	case *iceberg.MapType:
		if omitted(t.Key) || omitted(t.Value) {
			return nil, fmt.Errorf("%w: field %q: a map of unknown cannot be stored in a data file", iceberg.ErrUnsupported, name)
		}
		key, err := fieldNode("key", t.KeyID, false, t.Key)
		if err != nil {
			return nil, err
		}
		val, err := fieldNode("value", t.ValueID, !t.ValueRequired, t.Value)
		if err != nil {
			return nil, err
		}
		n.typ = mapType
		n.fields = []parquet.Field{&pqNode{name: "key_value", repeated: true, typ: groupType, fields: []parquet.Field{key, val}}}
	default:
		lt, err := leafType(t)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
		n.typ = lt
	}
	return n, nil
}

func leafType(t iceberg.Type) (parquet.Type, error) {
	switch t := t.(type) {
	case iceberg.BooleanType:
		return parquet.BooleanType, nil
	case iceberg.IntType:
		return parquet.Int32Type, nil
	case iceberg.LongType:
		return parquet.Int64Type, nil
	case iceberg.FloatType:
		return parquet.FloatType, nil
	case iceberg.DoubleType:
		return parquet.DoubleType, nil
	case iceberg.DecimalType:
		if t.Precision < 1 || t.Precision > 38 {
			return nil, fmt.Errorf("%w: decimal precision %d", iceberg.ErrInvalidSchema, t.Precision)
		}
		return parquet.Decimal(t.Scale, t.Precision, decimalPhysical(t.Precision)).Type(), nil
	case iceberg.DateType:
		return parquet.Date().Type(), nil
	case iceberg.TimeType:
		return parquet.TimeAdjusted(parquet.Microsecond, false).Type(), nil
	case iceberg.TimestampType:
		return parquet.TimestampAdjusted(parquet.Microsecond, false).Type(), nil
	case iceberg.TimestampTzType:
		return parquet.TimestampAdjusted(parquet.Microsecond, true).Type(), nil
	case iceberg.TimestampNsType:
		return parquet.TimestampAdjusted(parquet.Nanosecond, false).Type(), nil
	case iceberg.TimestampTzNsType:
		return parquet.TimestampAdjusted(parquet.Nanosecond, true).Type(), nil
	case iceberg.StringType:
		return parquet.String().Type(), nil
	case iceberg.UUIDType:
		return parquet.UUID().Type(), nil
	case iceberg.FixedType:
		if t.Length < 1 {
			return nil, fmt.Errorf("%w: fixed length %d", iceberg.ErrInvalidSchema, t.Length)
		}
		return parquet.FixedLenByteArrayType(t.Length), nil
	case iceberg.BinaryType:
		return parquet.ByteArrayType, nil
	case iceberg.GeometryType, iceberg.GeographyType:
		return geoLeafType(t)
	}
	return nil, fmt.Errorf("%w: type %v in parquet", iceberg.ErrUnsupported, t)
}

// decimalPhysical picks INT32/INT64/FIXED_LEN_BYTE_ARRAY by precision as the
// spec requires.
func decimalPhysical(precision int) parquet.Type {
	switch {
	case precision <= 9:
		return parquet.Int32Type
	case precision <= 18:
		return parquet.Int64Type
	}
	return parquet.FixedLenByteArrayType(decimalBytes(precision))
}

// decimalBytes is the fewest bytes whose two's complement holds 10^p - 1.
func decimalBytes(precision int) int {
	for n := 1; ; n++ {
		// 8n-1 value bits hold log10(2)*(8n-1) decimal digits.
		if float64(8*n-1)*0.30102999566398120 >= float64(precision) {
			return n
		}
	}
}
