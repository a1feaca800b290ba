package iceberg

import (
	"fmt"
	"strings"
)

// Schema is an immutable table schema: a struct of fields plus a schema id
// and the identifier fields. Lookups by id and by (dotted, case-sensitive)
// name are indexed once at construction.
type Schema struct {
	ID                 int
	IdentifierFieldIDs []int
	fields             []NestedField

	byID   map[int]NestedField
	byName map[string]int // full dotted name -> id
	lower  map[string]int // lower-cased full name -> id (case-insensitive lookup)
	parent map[int]int    // child id -> parent id (0 for top level)
	maxID  int
}

// NewSchema builds a schema and indexes its fields. It returns an error
// when two fields share an id, or a struct has two fields with one name.
func NewSchema(id int, fields []NestedField, identifierFieldIDs ...int) (*Schema, error) {
	s := &Schema{
		ID:                 id,
		IdentifierFieldIDs: append([]int(nil), identifierFieldIDs...),
		fields:             append([]NestedField(nil), fields...),
		byID:               map[int]NestedField{},
		byName:             map[string]int{},
		lower:              map[string]int{},
		parent:             map[int]int{},
	}
	if err := s.index(s.fields, "", 0); err != nil {
		return nil, err
	}
	for _, fid := range s.IdentifierFieldIDs {
		if _, ok := s.byID[fid]; !ok {
			return nil, fmt.Errorf("%w: identifier field id %d is not in the schema", ErrInvalidSchema, fid)
		}
	}
	return s, nil
}

// MustSchema is NewSchema for literals in code and tests; it panics on a
// malformed schema, so never call it with user input.
func MustSchema(id int, fields ...NestedField) *Schema {
	s, err := NewSchema(id, fields)
	if err != nil {
		panic(err)
	}
	return s
}

func (s *Schema) index(fields []NestedField, prefix string, parent int) error {
	seen := map[string]bool{}
	for _, f := range fields {
		if f.ID < 0 || f.ID > MaxUserFieldID {
			return fmt.Errorf("%w: field %q has id %d outside 0..%d", ErrInvalidSchema, f.Name, f.ID, MaxUserFieldID)
		}
		if f.Type == nil {
			return fmt.Errorf("%w: field %q has no type", ErrInvalidSchema, f.Name)
		}
		if _, dup := s.byID[f.ID]; dup {
			return fmt.Errorf("%w: field id %d is used twice", ErrInvalidSchema, f.ID)
		}
		if seen[f.Name] {
			return fmt.Errorf("%w: field name %q is used twice", ErrInvalidSchema, prefix+f.Name)
		}
		seen[f.Name] = true
		name := prefix + f.Name
		s.byID[f.ID] = f
		s.byName[name] = f.ID
		if _, ok := s.lower[strings.ToLower(name)]; !ok {
			s.lower[strings.ToLower(name)] = f.ID
		}
		s.parent[f.ID] = parent
		if f.ID > s.maxID {
			s.maxID = f.ID
		}
		if nt, ok := f.Type.(NestedType); ok {
			if err := s.index(nt.Fields(), name+".", f.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// MaxUserFieldID is the highest field id a user schema may use; ids above
// it are reserved for metadata columns.
const MaxUserFieldID = 2147483447

// Fields returns the top-level fields. The slice must not be modified.
func (s *Schema) Fields() []NestedField { return s.fields }

// AsStruct returns the schema as a struct type.
func (s *Schema) AsStruct() *StructType { return &StructType{FieldList: s.fields} }

// HighestFieldID is the largest field id used anywhere in the schema.
func (s *Schema) HighestFieldID() int { return s.maxID }

// FindFieldByID returns the field with the given id at any depth.
func (s *Schema) FindFieldByID(id int) (NestedField, bool) {
	f, ok := s.byID[id]
	return f, ok
}

// FindFieldByName resolves a dotted name ("a.b.c"); list elements and map
// keys/values are named "element", "key" and "value".
func (s *Schema) FindFieldByName(name string) (NestedField, bool) {
	id, ok := s.byName[name]
	if !ok {
		return NestedField{}, false
	}
	return s.byID[id], true
}

// FindFieldByNameCaseInsensitive is FindFieldByName ignoring case, as SQL
// identifiers are resolved.
func (s *Schema) FindFieldByNameCaseInsensitive(name string) (NestedField, bool) {
	if id, ok := s.byName[name]; ok {
		return s.byID[id], true
	}
	id, ok := s.lower[strings.ToLower(name)]
	if !ok {
		return NestedField{}, false
	}
	return s.byID[id], true
}

// FindColumnName returns the full dotted name of a field id.
func (s *Schema) FindColumnName(id int) (string, bool) {
	f, ok := s.byID[id]
	if !ok {
		return "", false
	}
	name := f.Name
	for p := s.parent[id]; p != 0; p = s.parent[p] {
		name = s.byID[p].Name + "." + name
	}
	return name, true
}

// ParentID returns the id of the field that contains id (0 at top level).
func (s *Schema) ParentID(id int) int { return s.parent[id] }

// Equals reports whether two schemas have the same fields and identifier
// fields (the schema id is ignored, as Java does when reusing schemas).
func (s *Schema) Equals(o *Schema) bool {
	if len(s.IdentifierFieldIDs) != len(o.IdentifierFieldIDs) {
		return false
	}
	for i := range s.IdentifierFieldIDs {
		if s.IdentifierFieldIDs[i] != o.IdentifierFieldIDs[i] {
			return false
		}
	}
	return TypesEqual(s.AsStruct(), o.AsStruct())
}

// Select returns a schema holding only the given top-level or nested field
// ids (and their ancestors), preserving order; used for column projection.
func (s *Schema) Select(ids ...int) (*Schema, error) {
	want := map[int]bool{}
	for _, id := range ids {
		if _, ok := s.byID[id]; !ok {
			return nil, fmt.Errorf("%w: field id %d", ErrNoSuchField, id)
		}
		for p := id; p != 0; p = s.parent[p] {
			want[p] = true
		}
	}
	fields := pruneFields(s.fields, want, ids)
	return NewSchema(s.ID, fields)
}

func pruneFields(fields []NestedField, want map[int]bool, selected []int) []NestedField {
	var out []NestedField
	for _, f := range fields {
		if !want[f.ID] {
			continue
		}
		if isSelected(f.ID, selected) {
			out = append(out, f) // whole subtree
			continue
		}
		if st, ok := f.Type.(*StructType); ok {
			nf := f
			nf.Type = &StructType{FieldList: pruneFields(st.FieldList, want, selected)}
			out = append(out, nf)
			continue
		}
		out = append(out, f)
	}
	return out
}

func isSelected(id int, ids []int) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func (s *Schema) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "table {\n")
	for _, f := range s.fields {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	b.WriteString("}")
	return b.String()
}
