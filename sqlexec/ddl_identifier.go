package sqlexec

import (
	"slices"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/parser"
)

// identifierUpdates sets or drops a table's identifier fields through a
// new schema, with Java's rules: an identifier field is a required
// primitive column other than float/double, nested only in required
// structs. SET replaces the whole set; DROP removes the columns named,
// each of which must be an identifier field. Nil updates mean nothing
// changes.
func identifierUpdates(meta *iceberg.TableMetadata, a parser.IdentifierFieldsAction) ([]iceberg.Update, error) {
	cur := meta.CurrentSchema()
	var ids []int
	if a.Drop {
		ids = append(ids, cur.IdentifierFieldIDs...)
	}
	for _, c := range a.Columns {
		name, err := resolveColumnName(cur, c)
		if err != nil {
			return nil, err
		}
		f, _ := cur.FindFieldByName(name)
		if a.Drop {
			i := slices.Index(ids, f.ID)
			if i < 0 {
				return nil, invalidf("column %q is not an identifier field", c)
			}
			ids = slices.Delete(ids, i, i+1)
			continue
		}
		if err := checkIdentifierField(cur, name, f); err != nil {
			return nil, err
		}
		if !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	if slices.Equal(ids, cur.IdentifierFieldIDs) {
		return nil, nil
	}
	schema, err := iceberg.NewSchema(cur.ID+1, cur.Fields(), ids...)
	if err != nil {
		return nil, err
	}
	return []iceberg.Update{
		iceberg.AddSchemaUpdate{Schema: schema, LastColumnID: meta.LastColumnID()},
		iceberg.SetCurrentSchemaUpdate{SchemaID: iceberg.LastAdded},
	}, nil
}

func checkIdentifierField(schema *iceberg.Schema, name string, f iceberg.NestedField) error {
	switch f.Type.(type) {
	case iceberg.FloatType, iceberg.DoubleType:
		return invalidf("column %q cannot be an identifier field: %s values are not comparable for equality", name, f.Type)
	case iceberg.PrimitiveType:
	default:
		return invalidf("column %q cannot be an identifier field: %s is not a primitive type", name, f.Type)
	}
	if !f.Required {
		return invalidf("column %q cannot be an identifier field: it is optional (make it NOT NULL)", name)
	}
	for p := schema.ParentID(f.ID); p != 0; p = schema.ParentID(p) {
		pf, _ := schema.FindFieldByID(p)
		if _, ok := pf.Type.(*iceberg.StructType); !ok {
			return invalidf("column %q cannot be an identifier field: it is inside %s %q", name, pf.Type, pf.Name)
		}
		if !pf.Required {
			return invalidf("column %q cannot be an identifier field: its struct %q is optional", name, pf.Name)
		}
	}
	return nil
}

// primaryKeySchema is the schema of CREATE TABLE's columns with its
// PRIMARY KEY as identifier fields, as Flink maps PRIMARY KEY ... NOT
// ENFORCED: the key columns become required (a key column cannot be
// NULL), then must pass the identifier-field rules. The key is not
// enforced: nothing checks that rows are unique.
func primaryKeySchema(fields []iceberg.NestedField, key []string) (*iceberg.Schema, error) {
	fields = slices.Clone(fields)
	for _, k := range key {
		if !requirePath(fields, strings.Split(k, ".")) {
			return nil, invalidf("PRIMARY KEY column %q does not exist", k)
		}
	}
	schema, err := freshSchema(fields)
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, k := range key {
		name, err := resolveColumnName(schema, k)
		if err != nil {
			return nil, err
		}
		f, _ := schema.FindFieldByName(name)
		if slices.Contains(ids, f.ID) {
			return nil, invalidf("PRIMARY KEY names column %q twice", k)
		}
		if err := checkIdentifierField(schema, name, f); err != nil {
			return nil, err
		}
		ids = append(ids, f.ID)
	}
	return iceberg.NewSchema(schema.ID, schema.Fields(), ids...)
}

// requirePath marks the field at path (names compared case-insensitively,
// through structs) required, copying the structs it changes.
func requirePath(fields []iceberg.NestedField, path []string) bool {
	for i, f := range fields {
		if !strings.EqualFold(f.Name, path[0]) {
			continue
		}
		if len(path) == 1 {
			fields[i].Required = true
			return true
		}
		st, ok := f.Type.(*iceberg.StructType)
		if !ok {
			return false
		}
		inner := slices.Clone(st.FieldList)
		if !requirePath(inner, path[1:]) {
			return false
		}
		fields[i].Type = &iceberg.StructType{FieldList: inner}
		return true
	}
	return false
}
