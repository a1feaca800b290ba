package sqlexec

import (
	"context"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/parser"
)

func (s *Session) alterTable(ctx context.Context, st *parser.AlterTableStmt) error {
	if r, ok := st.Action.(parser.RenameTableAction); ok {
		return s.renameTable(ctx, st.Table, r.To)
	}
	t, err := s.loadTable(ctx, st.Table)
	if err != nil {
		return err
	}
	meta := t.Metadata()
	var updates []iceberg.Update
	switch a := st.Action.(type) {
	case parser.SetPropertiesAction:
		m := map[string]string{}
		for _, p := range a.Properties {
			m[p.Key] = p.Value
		}
		if err := checkTablePropertyNames(m); err != nil {
			return err
		}
		if err := s.engine.checkPathProperties(meta.Location(), m); err != nil {
			return err
		}
		updates = append(updates, iceberg.SetPropertiesUpdate{Updates: m})
	case parser.UnsetPropertiesAction:
		var keys []string
		props := meta.Properties()
		for _, k := range a.Keys {
			if _, ok := props[k]; !ok {
				if a.IfExists {
					continue
				}
				return invalidf("table property %q is not set", k)
			}
			keys = append(keys, k)
		}
		if len(keys) == 0 {
			return nil
		}
		updates = append(updates, iceberg.RemovePropertiesUpdate{Removals: keys})
	case parser.AddColumnsAction, parser.DropColumnsAction, parser.RenameColumnAction, parser.AlterColumnAction:
		u, err := schemaUpdates(meta, a)
		if err != nil || u == nil {
			return err
		}
		updates = u
	case parser.IdentifierFieldsAction:
		u, err := identifierUpdates(meta, a)
		if err != nil || u == nil {
			return err
		}
		updates = u
	case parser.WriteOrderAction:
		if updates, err = writeOrderUpdates(meta, a); err != nil {
			return err
		}
	case parser.AddPartitionFieldAction:
		spec, err := evolveSpec(meta, &a.Term, nil)
		if err != nil {
			return err
		}
		updates = specUpdates(spec)
	case parser.DropPartitionFieldAction:
		spec, err := evolveSpec(meta, nil, &a.Term)
		if err != nil {
			return err
		}
		updates = specUpdates(spec)
	case parser.ReplacePartitionFieldAction:
		spec, err := evolveSpec(meta, &a.To, &a.From)
		if err != nil {
			return err
		}
		updates = specUpdates(spec)
	default:
		return notSupported("ALTER TABLE ... %s", firstWords(st.Action.String()))
	}
	_, err = t.CommitUpdates(ctx, updates)
	return err
}

func specUpdates(spec *iceberg.PartitionSpec) []iceberg.Update {
	return []iceberg.Update{iceberg.AddPartitionSpecUpdate{Spec: spec}, iceberg.SetDefaultSpecUpdate{SpecID: iceberg.LastAdded}}
}

func (s *Session) renameTable(ctx context.Context, from, to *parser.TableRef) error {
	src, err := s.ident(from)
	if err != nil {
		return err
	}
	dst := table.Identifier{Namespace: to.Namespace, Name: to.Table}
	if len(dst.Namespace) == 0 {
		dst.Namespace = src.Namespace
	}
	if err := checkNewIdent(dst); err != nil {
		return err
	}
	return s.engine.catalog.RenameTable(ctx, src, dst)
}

// schemaUpdates evolves the current schema for a column action; nil
// updates mean nothing to do.
func schemaUpdates(meta *iceberg.TableMetadata, action parser.AlterAction) ([]iceberg.Update, error) {
	cur := meta.CurrentSchema()
	u := iceberg.NewSchemaUpdate(cur, meta.LastColumnID())
	switch a := action.(type) {
	case parser.AddColumnsAction:
		for _, c := range a.Columns {
			if c.First || c.After != "" {
				return nil, notSupported("column positions (FIRST/AFTER)")
			}
			if c.NotNull {
				return nil, invalidf("cannot add required column %q: existing rows have no value", c.Name)
			}
			parent, name := splitPath(c.Name)
			if parent != "" {
				p, err := resolveColumnName(cur, parent)
				if err != nil {
					return nil, err
				}
				parent = p
			}
			u = u.AddColumn(parent, name, c.Type, c.Comment)
		}
	case parser.DropColumnsAction:
		n := 0
		for _, c := range a.Columns {
			name, err := resolveColumnName(cur, c)
			if err != nil {
				if a.IfExists {
					continue
				}
				return nil, err
			}
			u = u.DeleteColumn(name)
			n++
		}
		if n == 0 {
			return nil, nil
		}
	case parser.RenameColumnAction:
		name, err := resolveColumnName(cur, a.From)
		if err != nil {
			return nil, err
		}
		u = u.RenameColumn(name, a.To)
	case parser.AlterColumnAction:
		name, err := resolveColumnName(cur, a.Column)
		if err != nil {
			return nil, err
		}
		switch {
		case a.Type != nil:
			pt, ok := a.Type.(iceberg.PrimitiveType)
			if !ok {
				return nil, invalidf("column %q: can only change to a primitive type", a.Column)
			}
			u = u.UpdateColumnType(name, pt)
		case a.DropNotNull:
			u = u.MakeColumnOptional(name)
		case a.Comment != nil:
			u = u.UpdateColumnDoc(name, *a.Comment)
		case a.SetNotNull:
			return nil, invalidf("column %q: cannot make an optional column required", a.Column)
		default:
			return nil, notSupported("ALTER COLUMN %s", a.String())
		}
	}
	schema, last, err := u.Apply()
	if err != nil {
		return nil, err
	}
	return []iceberg.Update{
		iceberg.AddSchemaUpdate{Schema: schema, LastColumnID: last},
		iceberg.SetCurrentSchemaUpdate{SchemaID: iceberg.LastAdded},
	}, nil
}

func splitPath(p string) (parent, name string) {
	i := strings.LastIndexByte(p, '.')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// evolveSpec returns the current spec with drop removed and add added,
// keeping the field ids of the fields that stay.
func evolveSpec(meta *iceberg.TableMetadata, add, drop *parser.PartitionTerm) (*iceberg.PartitionSpec, error) {
	schema := meta.CurrentSchema()
	cur := meta.CurrentSpec()
	b := iceberg.NewPartitionSpecBuilder(schema).WithLastAssignedFieldID(meta.LastPartitionID())
	dropped := false
	for _, f := range cur.Fields {
		if drop != nil && !dropped && matchesTerm(schema, f, *drop) {
			dropped = true
			continue
		}
		b = b.AddField(f.SourceID, f.FieldID, f.Transform, f.Name)
	}
	if drop != nil && !dropped {
		return nil, invalidf("no partition field %s", drop.String())
	}
	if add != nil {
		tr, err := iceberg.ParseTransform(add.IcebergTransform())
		if err != nil {
			return nil, err
		}
		col, err := resolveColumnName(schema, add.Column)
		if err != nil {
			return nil, err
		}
		src, _ := schema.FindFieldByName(col)
		for _, f := range cur.Fields {
			if f.SourceID == src.ID && f.Transform.String() == tr.String() && (drop == nil || !matchesTerm(schema, f, *drop)) {
				return nil, invalidf("partition field %s already exists", add.String())
			}
		}
		b = b.Add(col, tr, add.Name)
	}
	return b.Build()
}

// matchesTerm reports whether a partition field is the one a DROP names:
// by transform and source column, or by field name for an identity term.
func matchesTerm(schema *iceberg.Schema, f iceberg.PartitionField, t parser.PartitionTerm) bool {
	if t.Transform == "identity" && strings.EqualFold(f.Name, t.Column) {
		return true
	}
	col, err := resolveColumnName(schema, t.Column)
	if err != nil {
		return false
	}
	src, _ := schema.FindFieldByName(col)
	return src.ID == f.SourceID && f.Transform.String() == t.IcebergTransform()
}
