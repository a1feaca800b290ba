package sqlexec

import (
	"slices"

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
