package iceberg

import (
	"fmt"
	"slices"
)

// SchemaUpdate evolves a schema the way ALTER TABLE does. Operations apply
// in order to a working schema (names resolve against the result of the
// previous operations); the first error sticks and is returned by Apply.
//
//	s, lastID, err := NewSchemaUpdate(cur, meta.LastColumnID()).
//		AddColumn("", "note", StringType{}, "").
//		RenameColumn("ts", "event_ts").
//		Apply()
type SchemaUpdate struct {
	schema       *Schema
	lastColumnID int
	err          error
}

// NewSchemaUpdate starts an update of base; lastColumnID is the table's
// last-column-id, above which new field ids are assigned.
func NewSchemaUpdate(base *Schema, lastColumnID int) *SchemaUpdate {
	u := &SchemaUpdate{schema: base, lastColumnID: max(lastColumnID, base.HighestFieldID())}
	return u
}

// Apply returns the evolved schema (id = base id + 1) and the new
// last-column-id.
func (u *SchemaUpdate) Apply() (*Schema, int, error) {
	if u.err != nil {
		return nil, 0, u.err
	}
	s, err := NewSchema(u.schema.ID+1, u.schema.Fields(), u.schema.IdentifierFieldIDs...)
	if err != nil {
		return nil, 0, err
	}
	return s, u.lastColumnID, nil
}

func (u *SchemaUpdate) fail(err error) *SchemaUpdate {
	if u.err == nil {
		u.err = err
	}
	return u
}

func (u *SchemaUpdate) find(name string) (NestedField, bool) {
	f, ok := u.schema.FindFieldByName(name)
	if !ok {
		u.fail(fmt.Errorf("%w: %q", ErrNoSuchField, name))
	}
	return f, ok
}

func (u *SchemaUpdate) rebuild(fields []NestedField, ident []int) {
	s, err := NewSchema(u.schema.ID, fields, ident...)
	if err != nil {
		u.fail(err)
		return
	}
	u.schema = s
}

// AddColumn adds an optional column to the struct named parent ("" for
// the top level; a list or map parent means its element or value struct).
func (u *SchemaUpdate) AddColumn(parent, name string, typ Type, doc string) *SchemaUpdate {
	return u.addColumn(parent, NestedField{Name: name, Type: typ, Doc: doc})
}

// AddRequiredColumn adds a required column; existing rows read def, which
// must be a non-nil value of typ (v3 initial-default and write-default).
func (u *SchemaUpdate) AddRequiredColumn(parent, name string, typ Type, doc string, def any) *SchemaUpdate {
	if def == nil {
		return u.fail(fmt.Errorf("%w: required column %q needs a default value", ErrInvalidSchema, name))
	}
	if err := ValidateValue(typ, def); err != nil {
		return u.fail(fmt.Errorf("%w: default of column %q: %w", ErrTypeMismatch, name, err))
	}
	return u.addColumn(parent, NestedField{Name: name, Type: typ, Doc: doc, Required: true, InitialDefault: def, WriteDefault: def})
}

func (u *SchemaUpdate) addColumn(parent string, f NestedField) *SchemaUpdate {
	if u.err != nil {
		return u
	}
	if f.Name == "" || f.Type == nil {
		return u.fail(fmt.Errorf("%w: new column needs a name and a type", ErrInvalidSchema))
	}
	u.lastColumnID++
	f.ID = u.lastColumnID
	next := func() int { u.lastColumnID++; return u.lastColumnID }
	f.Type = withNewIDs(f.Type, next)
	addTo := func(fields []NestedField) ([]NestedField, error) {
		for _, g := range fields {
			if g.Name == f.Name {
				return nil, fmt.Errorf("%w: column %q already exists", ErrInvalidSchema, f.Name)
			}
		}
		return append(slices.Clone(fields), f), nil
	}
	if parent == "" {
		fields, err := addTo(u.schema.Fields())
		if err != nil {
			return u.fail(err)
		}
		u.rebuild(fields, u.schema.IdentifierFieldIDs)
		return u
	}
	p, ok := u.find(parent)
	if !ok {
		return u
	}
	target := p
	switch t := p.Type.(type) {
	case *ListType:
		target = t.ElementField()
	case *MapType:
		target = t.ValueField()
	}
	st, ok := target.Type.(*StructType)
	if !ok {
		return u.fail(fmt.Errorf("%w: cannot add a column to %q of type %s", ErrTypeMismatch, parent, p.Type))
	}
	fields, err := addTo(st.FieldList)
	if err != nil {
		return u.fail(err)
	}
	return u.update(target.ID, func(g NestedField) (NestedField, bool, error) {
		g.Type = &StructType{FieldList: fields}
		return g, true, nil
	})
}

// withNewIDs gives every nested field of t a new id from next.
func withNewIDs(t Type, next func() int) Type {
	switch tt := t.(type) {
	case *StructType:
		fields := slices.Clone(tt.FieldList)
		for i := range fields {
			fields[i].ID = next()
		}
		for i := range fields {
			fields[i].Type = withNewIDs(fields[i].Type, next)
		}
		return &StructType{FieldList: fields}
	case *ListType:
		id := next()
		return &ListType{ElementID: id, Element: withNewIDs(tt.Element, next), ElementRequired: tt.ElementRequired}
	case *MapType:
		kid, vid := next(), next()
		return &MapType{KeyID: kid, Key: withNewIDs(tt.Key, next), ValueID: vid, Value: withNewIDs(tt.Value, next), ValueRequired: tt.ValueRequired}
	}
	return t
}

// DeleteColumn drops a column (and its children). Identifier fields
// cannot be dropped.
func (u *SchemaUpdate) DeleteColumn(name string) *SchemaUpdate {
	f, ok := u.find(name)
	if !ok || u.err != nil {
		return u
	}
	if slices.Contains(u.schema.IdentifierFieldIDs, f.ID) {
		return u.fail(fmt.Errorf("%w: cannot drop identifier field %q", ErrInvalidSchema, name))
	}
	return u.update(f.ID, func(g NestedField) (NestedField, bool, error) { return g, false, nil })
}

// RenameColumn renames a struct field (the last part of name).
func (u *SchemaUpdate) RenameColumn(name, newName string) *SchemaUpdate {
	f, ok := u.find(name)
	if !ok || u.err != nil {
		return u
	}
	if newName == "" {
		return u.fail(fmt.Errorf("%w: empty column name", ErrInvalidSchema))
	}
	return u.update(f.ID, func(g NestedField) (NestedField, bool, error) {
		g.Name = newName
		return g, true, nil
	})
}

// UpdateColumnType widens a primitive column (int->long, float->double,
// decimal precision); other changes wrap ErrTypeMismatch.
func (u *SchemaUpdate) UpdateColumnType(name string, typ PrimitiveType) *SchemaUpdate {
	f, ok := u.find(name)
	if !ok || u.err != nil {
		return u
	}
	if _, prim := f.Type.(PrimitiveType); !prim || typ == nil || !CanPromote(f.Type, typ) {
		return u.fail(fmt.Errorf("%w: cannot change column %q from %s to %v", ErrTypeMismatch, name, f.Type, typ))
	}
	return u.update(f.ID, func(g NestedField) (NestedField, bool, error) {
		g.Type = typ
		return g, true, nil
	})
}

// MakeColumnOptional lets a column hold nulls.
func (u *SchemaUpdate) MakeColumnOptional(name string) *SchemaUpdate {
	f, ok := u.find(name)
	if !ok || u.err != nil {
		return u
	}
	if slices.Contains(u.schema.IdentifierFieldIDs, f.ID) {
		return u.fail(fmt.Errorf("%w: identifier field %q must stay required", ErrInvalidSchema, name))
	}
	return u.update(f.ID, func(g NestedField) (NestedField, bool, error) {
		g.Required = false
		return g, true, nil
	})
}

// UpdateColumnDoc sets a column's doc string.
func (u *SchemaUpdate) UpdateColumnDoc(name, doc string) *SchemaUpdate {
	f, ok := u.find(name)
	if !ok || u.err != nil {
		return u
	}
	return u.update(f.ID, func(g NestedField) (NestedField, bool, error) {
		g.Doc = doc
		return g, true, nil
	})
}

// fieldEdit returns the replacement field and whether to keep it.
type fieldEdit func(NestedField) (NestedField, bool, error)

func (u *SchemaUpdate) update(id int, edit fieldEdit) *SchemaUpdate {
	if u.err != nil {
		return u
	}
	fields, err := editFields(u.schema.Fields(), id, edit)
	if err != nil {
		return u.fail(err)
	}
	u.rebuild(fields, u.schema.IdentifierFieldIDs)
	return u
}

func editFields(fields []NestedField, id int, edit fieldEdit) ([]NestedField, error) {
	out := make([]NestedField, 0, len(fields))
	for _, f := range fields {
		if f.ID == id {
			nf, keep, err := edit(f)
			if err != nil {
				return nil, err
			}
			if keep {
				out = append(out, nf)
			}
			continue
		}
		t, err := editType(f.Type, id, edit)
		if err != nil {
			return nil, err
		}
		f.Type = t
		out = append(out, f)
	}
	return out, nil
}

func editType(t Type, id int, edit fieldEdit) (Type, error) {
	switch tt := t.(type) {
	case *StructType:
		fields, err := editFields(tt.FieldList, id, edit)
		if err != nil {
			return nil, err
		}
		return &StructType{FieldList: fields}, nil
	case *ListType:
		el := tt.ElementField()
		if el.ID == id {
			nf, keep, err := edit(el)
			if err != nil {
				return nil, err
			}
			if !keep || nf.Name != el.Name {
				return nil, fmt.Errorf("%w: a list element can only change type or nullability", ErrInvalidSchema)
			}
			return &ListType{ElementID: el.ID, Element: nf.Type, ElementRequired: nf.Required}, nil
		}
		et, err := editType(tt.Element, id, edit)
		if err != nil {
			return nil, err
		}
		return &ListType{ElementID: tt.ElementID, Element: et, ElementRequired: tt.ElementRequired}, nil
	case *MapType:
		if tt.KeyID == id {
			return nil, fmt.Errorf("%w: map keys cannot be changed", ErrInvalidSchema)
		}
		nt := *tt
		if tt.ValueID == id {
			v := tt.ValueField()
			nf, keep, err := edit(v)
			if err != nil {
				return nil, err
			}
			if !keep || nf.Name != v.Name {
				return nil, fmt.Errorf("%w: a map value can only change type or nullability", ErrInvalidSchema)
			}
			nt.Value, nt.ValueRequired = nf.Type, nf.Required
			return &nt, nil
		}
		var err error
		if nt.Key, err = editType(tt.Key, id, edit); err != nil {
			return nil, err
		}
		if nt.Value, err = editType(tt.Value, id, edit); err != nil {
			return nil, err
		}
		return &nt, nil
	}
	return t, nil
}
