package iceberg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// JSON forms of types and schemas (spec Appendix C).

var primitiveTypesByName = map[string]PrimitiveType{
	"boolean":        BooleanType{},
	"int":            IntType{},
	"long":           LongType{},
	"float":          FloatType{},
	"double":         DoubleType{},
	"date":           DateType{},
	"time":           TimeType{},
	"timestamp":      TimestampType{},
	"timestamptz":    TimestampTzType{},
	"timestamp_ns":   TimestampNsType{},
	"timestamptz_ns": TimestampTzNsType{},
	"unknown":        UnknownType{},
	"string":         StringType{},
	"uuid":           UUIDType{},
	"binary":         BinaryType{},
}

// v3 type names this engine cannot represent yet.
var unsupportedTypeNames = []string{}

// ParseType parses a primitive type name as written in metadata JSON:
// "long", "decimal(10,2)" (also "decimal(10, 2)"), "fixed[16]". Names are
// case-insensitive. Known v3 types that are not implemented give an error
// wrapping ErrUnsupported; anything else wraps ErrInvalidSchema.
func ParseType(name string) (PrimitiveType, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if t, ok := primitiveTypesByName[n]; ok {
		return t, nil
	}
	if rest, ok := strings.CutPrefix(n, "decimal("); ok {
		return parseDecimalType(name, rest)
	}
	if rest, ok := strings.CutPrefix(n, "fixed["); ok {
		body, ok := strings.CutSuffix(rest, "]")
		if !ok {
			return nil, metaErrorf(ErrInvalidSchema, "malformed fixed type %q", name)
		}
		l, err := strconv.Atoi(strings.TrimSpace(body))
		if err != nil || l <= 0 {
			return nil, metaErrorf(ErrInvalidSchema, "fixed type %q needs a positive length", name)
		}
		return FixedType{Length: l}, nil
	}
	for _, u := range unsupportedTypeNames {
		if n == u || strings.HasPrefix(n, u+"(") {
			return nil, metaErrorf(ErrUnsupported, "type %q (Iceberg v3) is not supported", name)
		}
	}
	return nil, metaErrorf(ErrInvalidSchema, "unknown type %q", name)
}

func parseDecimalType(name, rest string) (PrimitiveType, error) {
	body, ok := strings.CutSuffix(rest, ")")
	ps, ss, ok2 := strings.Cut(body, ",")
	if !ok || !ok2 {
		return nil, metaErrorf(ErrInvalidSchema, "malformed decimal type %q", name)
	}
	p, err1 := strconv.Atoi(strings.TrimSpace(ps))
	s, err2 := strconv.Atoi(strings.TrimSpace(ss))
	if err1 != nil || err2 != nil {
		return nil, metaErrorf(ErrInvalidSchema, "malformed decimal type %q", name)
	}
	if p < 1 || p > 38 || s < 0 || s > p {
		return nil, metaErrorf(ErrInvalidSchema, "decimal type %q needs 1 <= precision <= 38 and 0 <= scale <= precision", name)
	}
	return DecimalType{Precision: p, Scale: s}, nil
}

type fieldJSON struct {
	ID             int             `json:"id"`
	Name           string          `json:"name"`
	Required       bool            `json:"required"`
	Type           json.RawMessage `json:"type"`
	Doc            string          `json:"doc,omitempty"`
	InitialDefault json.RawMessage `json:"initial-default,omitempty"`
	WriteDefault   json.RawMessage `json:"write-default,omitempty"`
}

type structJSON struct {
	Type               string      `json:"type"`
	SchemaID           *int        `json:"schema-id,omitempty"`
	IdentifierFieldIDs []int       `json:"identifier-field-ids,omitempty"`
	Fields             []fieldJSON `json:"fields"`
}

type listJSON struct {
	Type            string          `json:"type"`
	ElementID       int             `json:"element-id"`
	Element         json.RawMessage `json:"element"`
	ElementRequired bool            `json:"element-required"`
}

type mapJSON struct {
	Type          string          `json:"type"`
	KeyID         int             `json:"key-id"`
	Key           json.RawMessage `json:"key"`
	ValueID       int             `json:"value-id"`
	Value         json.RawMessage `json:"value"`
	ValueRequired bool            `json:"value-required"`
}

// TypeToJSON returns a type's metadata JSON: a string for primitives, an
// object for struct, list and map.
func TypeToJSON(t Type) ([]byte, error) {
	switch tt := t.(type) {
	case *StructType:
		fields, err := fieldsToJSON(tt.FieldList)
		if err != nil {
			return nil, err
		}
		return json.Marshal(structJSON{Type: "struct", Fields: fields})
	case *ListType:
		el, err := TypeToJSON(tt.Element)
		if err != nil {
			return nil, err
		}
		return json.Marshal(listJSON{Type: "list", ElementID: tt.ElementID, Element: el, ElementRequired: tt.ElementRequired})
	case *MapType:
		k, err := TypeToJSON(tt.Key)
		if err != nil {
			return nil, err
		}
		v, err := TypeToJSON(tt.Value)
		if err != nil {
			return nil, err
		}
		return json.Marshal(mapJSON{Type: "map", KeyID: tt.KeyID, Key: k, ValueID: tt.ValueID, Value: v, ValueRequired: tt.ValueRequired})
	case PrimitiveType, VariantType, GeometryType, GeographyType:
		return json.Marshal(tt.String())
	case nil:
		return nil, metaErrorf(ErrInvalidSchema, "nil type")
	}
	return nil, metaErrorf(ErrUnsupported, "type %s has no JSON form", t)
}

func fieldsToJSON(fields []NestedField) ([]fieldJSON, error) {
	out := make([]fieldJSON, 0, len(fields))
	for _, f := range fields {
		t, err := TypeToJSON(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		fj := fieldJSON{ID: f.ID, Name: f.Name, Required: f.Required, Type: t, Doc: f.Doc}
		if f.InitialDefault != nil {
			if fj.InitialDefault, err = fieldDefaultToJSON(f.Type, f.InitialDefault); err != nil {
				return nil, fmt.Errorf("field %q initial-default: %w", f.Name, err)
			}
		}
		if f.WriteDefault != nil {
			if fj.WriteDefault, err = fieldDefaultToJSON(f.Type, f.WriteDefault); err != nil {
				return nil, fmt.Errorf("field %q write-default: %w", f.Name, err)
			}
		}
		out = append(out, fj)
	}
	return out, nil
}

// TypeFromJSON parses a type's metadata JSON (string or object). Errors
// wrap ErrInvalidSchema, or ErrUnsupported for unimplemented v3 types.
func TypeFromJSON(data []byte) (Type, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, metaErrorf(ErrInvalidSchema, "missing type")
	}
	if data[0] == '"' {
		var name string
		if err := json.Unmarshal(data, &name); err != nil {
			return nil, metaErrorf(ErrInvalidSchema, "bad type name: %v", err)
		}
		if strings.EqualFold(strings.TrimSpace(name), "variant") {
			return VariantType{}, nil
		}
		if g, ok, err := ParseGeoType(name); ok {
			return g, err
		}
		return ParseType(name)
	}
	if data[0] != '{' {
		return nil, metaErrorf(ErrInvalidSchema, "type must be a string or an object, got %.40s", data)
	}
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, metaErrorf(ErrInvalidSchema, "bad type object: %v", err)
	}
	if head.Type == nil {
		return nil, metaErrorf(ErrInvalidSchema, "type object has no \"type\" key")
	}
	switch *head.Type {
	case "struct":
		var sj struct {
			Fields *[]json.RawMessage `json:"fields"`
		}
		if err := json.Unmarshal(data, &sj); err != nil {
			return nil, metaErrorf(ErrInvalidSchema, "bad struct: %v", err)
		}
		if sj.Fields == nil {
			return nil, metaErrorf(ErrInvalidSchema, "struct has no \"fields\"")
		}
		fields, err := fieldsFromJSON(*sj.Fields)
		if err != nil {
			return nil, err
		}
		return &StructType{FieldList: fields}, nil
	case "list":
		var lj struct {
			ElementID       *int            `json:"element-id"`
			Element         json.RawMessage `json:"element"`
			ElementRequired *bool           `json:"element-required"`
		}
		if err := json.Unmarshal(data, &lj); err != nil {
			return nil, metaErrorf(ErrInvalidSchema, "bad list: %v", err)
		}
		if lj.ElementID == nil || lj.ElementRequired == nil {
			return nil, metaErrorf(ErrInvalidSchema, "list needs element-id, element and element-required")
		}
		el, err := TypeFromJSON(lj.Element)
		if err != nil {
			return nil, err
		}
		return &ListType{ElementID: *lj.ElementID, Element: el, ElementRequired: *lj.ElementRequired}, nil
	case "map":
		var mj struct {
			KeyID         *int            `json:"key-id"`
			Key           json.RawMessage `json:"key"`
			ValueID       *int            `json:"value-id"`
			Value         json.RawMessage `json:"value"`
			ValueRequired *bool           `json:"value-required"`
		}
		if err := json.Unmarshal(data, &mj); err != nil {
			return nil, metaErrorf(ErrInvalidSchema, "bad map: %v", err)
		}
		if mj.KeyID == nil || mj.ValueID == nil || mj.ValueRequired == nil {
			return nil, metaErrorf(ErrInvalidSchema, "map needs key-id, key, value-id, value and value-required")
		}
		k, err := TypeFromJSON(mj.Key)
		if err != nil {
			return nil, err
		}
		v, err := TypeFromJSON(mj.Value)
		if err != nil {
			return nil, err
		}
		return &MapType{KeyID: *mj.KeyID, Key: k, ValueID: *mj.ValueID, Value: v, ValueRequired: *mj.ValueRequired}, nil
	}
	return nil, metaErrorf(ErrInvalidSchema, "unknown nested type %q", *head.Type)
}

func fieldsFromJSON(raw []json.RawMessage) ([]NestedField, error) {
	fields := make([]NestedField, 0, len(raw))
	for i, r := range raw {
		var fj struct {
			ID             *int            `json:"id"`
			Name           *string         `json:"name"`
			Required       *bool           `json:"required"`
			Type           json.RawMessage `json:"type"`
			Doc            string          `json:"doc"`
			InitialDefault json.RawMessage `json:"initial-default"`
			WriteDefault   json.RawMessage `json:"write-default"`
		}
		if err := json.Unmarshal(r, &fj); err != nil {
			return nil, metaErrorf(ErrInvalidSchema, "field %d: %v", i, err)
		}
		if fj.ID == nil || fj.Name == nil || fj.Required == nil || fj.Type == nil {
			return nil, metaErrorf(ErrInvalidSchema, "field %d needs id, name, required and type", i)
		}
		t, err := TypeFromJSON(fj.Type)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", *fj.Name, err)
		}
		f := NestedField{ID: *fj.ID, Name: *fj.Name, Required: *fj.Required, Type: t, Doc: fj.Doc}
		if isJSONValue(fj.InitialDefault) {
			if f.InitialDefault, err = fieldDefaultFromJSON(t, fj.InitialDefault); err != nil {
				return nil, fmt.Errorf("field %q initial-default: %w", f.Name, err)
			}
		}
		if isJSONValue(fj.WriteDefault) {
			if f.WriteDefault, err = fieldDefaultFromJSON(t, fj.WriteDefault); err != nil {
				return nil, fmt.Errorf("field %q write-default: %w", f.Name, err)
			}
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// isJSONValue reports whether a raw value is present and not null.
func isJSONValue(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

// MarshalJSON writes the schema as a struct type with "schema-id" and,
// when set, "identifier-field-ids".
func (s *Schema) MarshalJSON() ([]byte, error) {
	fields, err := fieldsToJSON(s.fields)
	if err != nil {
		return nil, err
	}
	id := s.ID
	return json.Marshal(structJSON{Type: "struct", SchemaID: &id, IdentifierFieldIDs: s.IdentifierFieldIDs, Fields: fields})
}

// UnmarshalJSON parses a schema object; a missing "schema-id" (v1) reads
// as 0. Errors wrap ErrInvalidSchema.
func (s *Schema) UnmarshalJSON(data []byte) error {
	parsed, err := ParseSchemaJSON(data)
	if err != nil {
		return err
	}
	*s = *parsed
	return nil
}

// ParseSchemaJSON parses a schema object.
func ParseSchemaJSON(data []byte) (*Schema, error) {
	var sj struct {
		Type               *string            `json:"type"`
		SchemaID           *int               `json:"schema-id"`
		IdentifierFieldIDs []int              `json:"identifier-field-ids"`
		Fields             *[]json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal(data, &sj); err != nil {
		return nil, metaErrorf(ErrInvalidSchema, "bad schema JSON: %v", err)
	}
	if sj.Type != nil && *sj.Type != "struct" {
		return nil, metaErrorf(ErrInvalidSchema, "schema type must be \"struct\", got %q", *sj.Type)
	}
	if sj.Fields == nil {
		return nil, metaErrorf(ErrInvalidSchema, "schema has no \"fields\"")
	}
	fields, err := fieldsFromJSON(*sj.Fields)
	if err != nil {
		return nil, err
	}
	id := 0
	if sj.SchemaID != nil {
		id = *sj.SchemaID
	}
	return NewSchema(id, fields, sj.IdentifierFieldIDs...)
}

// fieldDefaultToJSON and fieldDefaultFromJSON convert v3 column defaults
// using the single-value JSON form (spec Appendix D).
func fieldDefaultToJSON(t Type, v any) (json.RawMessage, error) { return ValueToJSON(t, v) }

func fieldDefaultFromJSON(t Type, raw json.RawMessage) (any, error) {
	v, err := ValueFromJSON(t, raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return v, nil
}
