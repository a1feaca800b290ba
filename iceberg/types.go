package iceberg

import (
	"fmt"
	"strings"
)

// Type is an Iceberg data type. Primitive types are comparable values;
// nested types carry the field ids of their children.
type Type interface {
	// String returns the type's name as written in metadata JSON
	// ("long", "decimal(10,2)", "fixed[16]"); nested types print as
	// struct<...>, list<...>, map<...,...>.
	String() string
	isType()
}

// PrimitiveType is every Type except struct, list and map.
type PrimitiveType interface {
	Type
	isPrimitive()
}

// NestedType is struct, list or map: a type with child fields.
type NestedType interface {
	Type
	// Fields returns the child fields (list element and map key/value
	// are returned as synthetic fields named "element", "key", "value").
	Fields() []NestedField
}

type (
	BooleanType     struct{}
	IntType         struct{}
	LongType        struct{}
	FloatType       struct{}
	DoubleType      struct{}
	DateType        struct{}
	TimeType        struct{}
	TimestampType   struct{}
	TimestampTzType struct{}
	StringType      struct{}
	UUIDType        struct{}
	BinaryType      struct{}
	// DecimalType is decimal(P,S); P is at most 38.
	DecimalType struct{ Precision, Scale int }
	// FixedType is fixed[L]: exactly L bytes.
	FixedType struct{ Length int }
)

func (BooleanType) String() string     { return "boolean" }
func (IntType) String() string         { return "int" }
func (LongType) String() string        { return "long" }
func (FloatType) String() string       { return "float" }
func (DoubleType) String() string      { return "double" }
func (DateType) String() string        { return "date" }
func (TimeType) String() string        { return "time" }
func (TimestampType) String() string   { return "timestamp" }
func (TimestampTzType) String() string { return "timestamptz" }
func (StringType) String() string      { return "string" }
func (UUIDType) String() string        { return "uuid" }
func (BinaryType) String() string      { return "binary" }
func (t DecimalType) String() string   { return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale) }
func (t FixedType) String() string     { return fmt.Sprintf("fixed[%d]", t.Length) }

func (BooleanType) isType()     {}
func (IntType) isType()         {}
func (LongType) isType()        {}
func (FloatType) isType()       {}
func (DoubleType) isType()      {}
func (DateType) isType()        {}
func (TimeType) isType()        {}
func (TimestampType) isType()   {}
func (TimestampTzType) isType() {}
func (StringType) isType()      {}
func (UUIDType) isType()        {}
func (BinaryType) isType()      {}
func (DecimalType) isType()     {}
func (FixedType) isType()       {}

func (BooleanType) isPrimitive()     {}
func (IntType) isPrimitive()         {}
func (LongType) isPrimitive()        {}
func (FloatType) isPrimitive()       {}
func (DoubleType) isPrimitive()      {}
func (DateType) isPrimitive()        {}
func (TimeType) isPrimitive()        {}
func (TimestampType) isPrimitive()   {}
func (TimestampTzType) isPrimitive() {}
func (StringType) isPrimitive()      {}
func (UUIDType) isPrimitive()        {}
func (BinaryType) isPrimitive()      {}
func (DecimalType) isPrimitive()     {}
func (FixedType) isPrimitive()       {}

// NestedField is a field of a struct (or a list element / map key / value
// viewed as a field). Field ids are unique across a whole schema.
type NestedField struct {
	ID       int
	Name     string
	Type     Type
	Required bool
	Doc      string
	// InitialDefault and WriteDefault are v3 defaults in the Go value form
	// of the field's type (see values.go); nil when absent.
	InitialDefault any
	WriteDefault   any
}

func (f NestedField) String() string {
	req := "optional"
	if f.Required {
		req = "required"
	}
	s := fmt.Sprintf("%d: %s: %s %s", f.ID, f.Name, req, f.Type)
	if f.Doc != "" {
		s += " (" + f.Doc + ")"
	}
	return s
}

// StructType is a tuple of named, id'd fields.
type StructType struct {
	FieldList []NestedField
}

// ListType is a list whose element has its own field id.
type ListType struct {
	ElementID       int
	Element         Type
	ElementRequired bool
}

// MapType is a map whose key and value have their own field ids. Keys are
// always required.
type MapType struct {
	KeyID         int
	Key           Type
	ValueID       int
	Value         Type
	ValueRequired bool
}

func (*StructType) isType() {}
func (*ListType) isType()   {}
func (*MapType) isType()    {}

func (t *StructType) Fields() []NestedField { return t.FieldList }

func (t *ListType) Fields() []NestedField {
	return []NestedField{t.ElementField()}
}

// ElementField views the list element as a field named "element".
func (t *ListType) ElementField() NestedField {
	return NestedField{ID: t.ElementID, Name: "element", Type: t.Element, Required: t.ElementRequired}
}

func (t *MapType) Fields() []NestedField {
	return []NestedField{t.KeyField(), t.ValueField()}
}

// KeyField views the map key as a required field named "key".
func (t *MapType) KeyField() NestedField {
	return NestedField{ID: t.KeyID, Name: "key", Type: t.Key, Required: true}
}

// ValueField views the map value as a field named "value".
func (t *MapType) ValueField() NestedField {
	return NestedField{ID: t.ValueID, Name: "value", Type: t.Value, Required: t.ValueRequired}
}

func (t *StructType) String() string {
	var b strings.Builder
	b.WriteString("struct<")
	for i, f := range t.FieldList {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name)
		b.WriteString(": ")
		b.WriteString(f.Type.String())
		if f.Required {
			b.WriteString(" not null")
		}
	}
	b.WriteString(">")
	return b.String()
}

func (t *ListType) String() string { return "list<" + t.Element.String() + ">" }

func (t *MapType) String() string {
	return "map<" + t.Key.String() + ", " + t.Value.String() + ">"
}

// Field returns the struct's field with the given id, or false.
func (t *StructType) Field(id int) (NestedField, bool) {
	for _, f := range t.FieldList {
		if f.ID == id {
			return f, true
		}
	}
	return NestedField{}, false
}

// TypesEqual reports whether two types are the same, including the ids,
// names and nullability of nested fields.
func TypesEqual(a, b Type) bool {
	switch at := a.(type) {
	case *StructType:
		bt, ok := b.(*StructType)
		if !ok || len(at.FieldList) != len(bt.FieldList) {
			return false
		}
		for i := range at.FieldList {
			fa, fb := at.FieldList[i], bt.FieldList[i]
			if fa.ID != fb.ID || fa.Name != fb.Name || fa.Required != fb.Required || !TypesEqual(fa.Type, fb.Type) {
				return false
			}
		}
		return true
	case *ListType:
		bt, ok := b.(*ListType)
		return ok && at.ElementID == bt.ElementID && at.ElementRequired == bt.ElementRequired && TypesEqual(at.Element, bt.Element)
	case *MapType:
		bt, ok := b.(*MapType)
		return ok && at.KeyID == bt.KeyID && at.ValueID == bt.ValueID && at.ValueRequired == bt.ValueRequired &&
			TypesEqual(at.Key, bt.Key) && TypesEqual(at.Value, bt.Value)
	default:
		return a == b
	}
}

// CanPromote reports whether a column of type from may be read as type to
// (Iceberg's allowed type promotions).
func CanPromote(from, to Type) bool {
	if TypesEqual(from, to) {
		return true
	}
	switch f := from.(type) {
	case UnknownType:
		// v3: a column of unknown type (all nulls) may become any type
		return true
	case IntType:
		_, ok := to.(LongType)
		return ok
	case FloatType:
		_, ok := to.(DoubleType)
		return ok
	case DecimalType:
		t, ok := to.(DecimalType)
		return ok && t.Scale == f.Scale && t.Precision >= f.Precision
	case DateType:
		// v3 allows date -> timestamp and timestamp_ns; readers must
		// handle it.
		switch to.(type) {
		case TimestampType, TimestampNsType:
			return true
		}
		return false
	}
	return false
}
