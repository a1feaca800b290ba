package iceberg

import (
	"encoding/json"
	"fmt"
)

// MappedField maps one or more column names (aliases) to a field id for
// data files written without field ids (schema.name-mapping.default).
// FieldID is nil for names that map to no field.
type MappedField struct {
	FieldID *int          `json:"field-id,omitempty"`
	Names   []string      `json:"names"`
	Fields  []MappedField `json:"fields,omitempty"`
}

// NameMapping is the parsed value of schema.name-mapping.default.
type NameMapping []MappedField

// ParseNameMapping parses a name mapping JSON list. Errors wrap
// ErrInvalidSchema: names must be unique within one level.
func ParseNameMapping(data []byte) (NameMapping, error) {
	var m NameMapping
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%w: name mapping: %v", ErrInvalidSchema, err)
	}
	if m == nil {
		return nil, fmt.Errorf("%w: name mapping must be a JSON list", ErrInvalidSchema)
	}
	if err := validateMappedFields(m); err != nil {
		return nil, err
	}
	return m, nil
}

func validateMappedFields(fields []MappedField) error {
	seen := map[string]bool{}
	for _, f := range fields {
		for _, n := range f.Names {
			if seen[n] {
				return fmt.Errorf("%w: name mapping repeats name %q", ErrInvalidSchema, n)
			}
			seen[n] = true
		}
		if err := validateMappedFields(f.Fields); err != nil {
			return err
		}
	}
	return nil
}

// MappingFromSchema maps each field's current name to its id (list
// elements, map keys and values appear as "element", "key", "value").
func MappingFromSchema(s *Schema) NameMapping {
	return mappedFields(s.Fields())
}

func mappedFields(fields []NestedField) []MappedField {
	out := make([]MappedField, 0, len(fields))
	for _, f := range fields {
		id := f.ID
		mf := MappedField{FieldID: &id, Names: []string{f.Name}}
		if nt, ok := f.Type.(NestedType); ok {
			mf.Fields = mappedFields(nt.Fields())
		}
		out = append(out, mf)
	}
	return out
}

// FindFieldID resolves a name path (e.g. "location", "lat") to a field id;
// false when any part is unmapped or maps to no id.
func (m NameMapping) FindFieldID(path ...string) (int, bool) {
	level := []MappedField(m)
	var found *MappedField
	for _, part := range path {
		found = nil
		for i := range level {
			for _, n := range level[i].Names {
				if n == part {
					found = &level[i]
				}
			}
		}
		if found == nil {
			return 0, false
		}
		level = found.Fields
	}
	if found == nil || found.FieldID == nil {
		return 0, false
	}
	return *found.FieldID, true
}
