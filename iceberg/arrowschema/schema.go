// Package arrowschema converts Iceberg schemas and values to and from their
// Arrow forms. Field ids travel in Arrow field metadata under FieldIDKey, as
// pqarrow and iceberg-go do.
package arrowschema

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/icesql/icesql/iceberg"
)

// FieldIDKey is the Arrow field metadata key holding the Iceberg field id.
const FieldIDKey = "PARQUET:field_id"

// ToArrow converts an Iceberg schema to an Arrow schema; every field,
// including list elements and map keys/values, carries its field id.
func ToArrow(s *iceberg.Schema) (*arrow.Schema, error) {
	fields := make([]arrow.Field, len(s.Fields()))
	for i, f := range s.Fields() {
		af, err := FieldToArrow(f)
		if err != nil {
			return nil, err
		}
		fields[i] = af
	}
	return arrow.NewSchema(fields, nil), nil
}

// FieldToArrow converts one Iceberg field (and its children) to Arrow.
func FieldToArrow(f iceberg.NestedField) (arrow.Field, error) {
	t, err := TypeToArrow(f.Type)
	if err != nil {
		return arrow.Field{}, fmt.Errorf("field %q: %w", f.Name, err)
	}
	return arrow.Field{Name: f.Name, Type: t, Nullable: !f.Required, Metadata: idMetadata(f.ID)}, nil
}

func idMetadata(id int) arrow.Metadata {
	return arrow.NewMetadata([]string{FieldIDKey}, []string{strconv.Itoa(id)})
}

// TypeToArrow converts an Iceberg type to the Arrow type used for it.
func TypeToArrow(t iceberg.Type) (arrow.DataType, error) {
	switch t := t.(type) {
	case iceberg.BooleanType:
		return arrow.FixedWidthTypes.Boolean, nil
	case iceberg.IntType:
		return arrow.PrimitiveTypes.Int32, nil
	case iceberg.LongType:
		return arrow.PrimitiveTypes.Int64, nil
	case iceberg.FloatType:
		return arrow.PrimitiveTypes.Float32, nil
	case iceberg.DoubleType:
		return arrow.PrimitiveTypes.Float64, nil
	case iceberg.DecimalType:
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}, nil
	case iceberg.DateType:
		return arrow.FixedWidthTypes.Date32, nil
	case iceberg.TimeType:
		return arrow.FixedWidthTypes.Time64us, nil
	case iceberg.TimestampType:
		return &arrow.TimestampType{Unit: arrow.Microsecond}, nil
	case iceberg.TimestampTzType:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, nil
	case iceberg.UnknownType:
		return arrow.Null, nil
	case iceberg.VariantType:
		return extensions.NewDefaultVariantType(), nil
	case iceberg.GeometryType, iceberg.GeographyType:
		return NewGeoType(t), nil
	case iceberg.TimestampNsType:
		return &arrow.TimestampType{Unit: arrow.Nanosecond}, nil
	case iceberg.TimestampTzNsType:
		return &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, nil
	case iceberg.StringType:
		return arrow.BinaryTypes.String, nil
	case iceberg.UUIDType:
		return UUIDType(), nil
	case iceberg.FixedType:
		return &arrow.FixedSizeBinaryType{ByteWidth: t.Length}, nil
	case iceberg.BinaryType:
		return arrow.BinaryTypes.Binary, nil
	case *iceberg.StructType:
		fields := make([]arrow.Field, len(t.FieldList))
		for i, f := range t.FieldList {
			af, err := FieldToArrow(f)
			if err != nil {
				return nil, err
			}
			fields[i] = af
		}
		return arrow.StructOf(fields...), nil
	case *iceberg.ListType:
		ef, err := FieldToArrow(t.ElementField())
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(ef), nil
	case *iceberg.MapType:
		kt, err := TypeToArrow(t.Key)
		if err != nil {
			return nil, err
		}
		vt, err := TypeToArrow(t.Value)
		if err != nil {
			return nil, err
		}
		mt := arrow.MapOfWithMetadata(kt, idMetadata(t.KeyID), vt, idMetadata(t.ValueID))
		if t.ValueRequired {
			mt.SetItemNullable(false)
		}
		return mt, nil
	}
	return nil, fmt.Errorf("%w: iceberg type %v", ErrUnsupportedType, t)
}

// FieldID returns the field id stored in an Arrow field's metadata.
func FieldID(f arrow.Field) (int, bool) {
	i := f.Metadata.FindKey(FieldIDKey)
	if i < 0 {
		return 0, false
	}
	id, err := strconv.Atoi(f.Metadata.Values()[i])
	if err != nil || id < 0 {
		return 0, false
	}
	return id, true
}

// FromArrow converts an Arrow schema back to an Iceberg schema with the given
// schema id. Every field must carry a field id (ErrNoFieldID otherwise).
// LargeString and StringView read as string, LargeBinary as binary.
func FromArrow(s *arrow.Schema, schemaID int) (*iceberg.Schema, error) {
	fields := make([]iceberg.NestedField, s.NumFields())
	for i, af := range s.Fields() {
		f, err := FieldFromArrow(af)
		if err != nil {
			return nil, err
		}
		fields[i] = f
	}
	return iceberg.NewSchema(schemaID, fields)
}

// FieldFromArrow converts one Arrow field (and its children) to Iceberg.
func FieldFromArrow(af arrow.Field) (iceberg.NestedField, error) {
	id, ok := FieldID(af)
	if !ok {
		return iceberg.NestedField{}, fmt.Errorf("%w: %q", ErrNoFieldID, af.Name)
	}
	t, err := TypeFromArrow(af.Type)
	if err != nil {
		return iceberg.NestedField{}, fmt.Errorf("field %q: %w", af.Name, err)
	}
	return iceberg.NestedField{ID: id, Name: af.Name, Type: t, Required: !af.Nullable}, nil
}

// TypeFromArrow converts an Arrow type to Iceberg; nested children must
// carry field ids.
func TypeFromArrow(t arrow.DataType) (iceberg.Type, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return iceberg.BooleanType{}, nil
	case *arrow.Int32Type:
		return iceberg.IntType{}, nil
	case *arrow.Int64Type:
		return iceberg.LongType{}, nil
	case *arrow.Float32Type:
		return iceberg.FloatType{}, nil
	case *arrow.Float64Type:
		return iceberg.DoubleType{}, nil
	case *arrow.Decimal128Type:
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return nil, fmt.Errorf("%w: %v", ErrUnsupportedType, t)
		}
		return iceberg.DecimalType{Precision: int(t.Precision), Scale: int(t.Scale)}, nil
	case *arrow.Date32Type:
		return iceberg.DateType{}, nil
	case *arrow.NullType:
		return iceberg.UnknownType{}, nil
	case *arrow.Time64Type:
		if t.Unit == arrow.Microsecond {
			return iceberg.TimeType{}, nil
		}
	case *arrow.TimestampType:
		switch t.Unit {
		case arrow.Microsecond:
			if t.TimeZone == "" {
				return iceberg.TimestampType{}, nil
			}
			return iceberg.TimestampTzType{}, nil
		case arrow.Nanosecond:
			if t.TimeZone == "" {
				return iceberg.TimestampNsType{}, nil
			}
			return iceberg.TimestampTzNsType{}, nil
		}
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return iceberg.StringType{}, nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return iceberg.BinaryType{}, nil
	case *arrow.FixedSizeBinaryType:
		return iceberg.FixedType{Length: t.ByteWidth}, nil
	case *extensions.UUIDType:
		return iceberg.UUIDType{}, nil
	case *extensions.VariantType:
		return iceberg.VariantType{}, nil
	case *GeoType:
		return t.Iceberg, nil
	case *arrow.StructType:
		fields := make([]iceberg.NestedField, t.NumFields())
		for i, af := range t.Fields() {
			f, err := FieldFromArrow(af)
			if err != nil {
				return nil, err
			}
			fields[i] = f
		}
		return &iceberg.StructType{FieldList: fields}, nil
	case *arrow.ListType:
		e, err := FieldFromArrow(t.ElemField())
		if err != nil {
			return nil, err
		}
		return &iceberg.ListType{ElementID: e.ID, Element: e.Type, ElementRequired: e.Required}, nil
	case *arrow.MapType:
		k, err := FieldFromArrow(t.KeyField())
		if err != nil {
			return nil, err
		}
		v, err := FieldFromArrow(t.ItemField())
		if err != nil {
			return nil, err
		}
		return &iceberg.MapType{KeyID: k.ID, Key: k.Type, ValueID: v.ID, Value: v.Type, ValueRequired: v.Required}, nil
	}
	return nil, fmt.Errorf("%w: %v", ErrUnsupportedType, t)
}
