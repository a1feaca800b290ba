package sqlexec

import (
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/parser"
)

// propDistributionMode is the table property Spark's WRITE clauses set.
const propDistributionMode = "write.distribution-mode"

// writeOrderUpdates is Spark's ALTER TABLE ... WRITE ...: the default sort
// order is replaced by the clause's (unsorted when it names none), and
// write.distribution-mode is set as Spark's extensions set it: hash for
// DISTRIBUTED BY PARTITION, none for UNORDERED, range for ORDERED BY, and
// left alone by LOCALLY ORDERED BY. Writes then sort each file's rows by
// the order (writeOrder).
func writeOrderUpdates(meta *iceberg.TableMetadata, a parser.WriteOrderAction) ([]iceberg.Update, error) {
	schema := meta.CurrentSchema()
	order := &iceberg.SortOrder{}
	for _, f := range a.Fields {
		tr, err := iceberg.ParseTransform(f.Term.IcebergTransform())
		if err != nil {
			return nil, err
		}
		col, err := resolveColumnName(schema, f.Term.Column)
		if err != nil {
			return nil, err
		}
		src, _ := schema.FindFieldByName(col)
		if _, ok := src.Type.(iceberg.PrimitiveType); !ok {
			return nil, invalidf("cannot order writes by %s column %q", src.Type, col)
		}
		if !tr.CanTransform(src.Type) {
			return nil, invalidf("transform %s cannot apply to %s column %q", tr, src.Type, col)
		}
		sf := iceberg.SortField{SourceID: src.ID, Transform: tr, Direction: iceberg.SortAsc, NullOrder: iceberg.NullsLast}
		if f.Desc {
			sf.Direction = iceberg.SortDesc
		}
		if f.NullsFirst {
			sf.NullOrder = iceberg.NullsFirst
		}
		order.Fields = append(order.Fields, sf)
	}
	updates := []iceberg.Update{
		iceberg.AddSortOrderUpdate{SortOrder: order},
		iceberg.SetDefaultSortOrderUpdate{SortOrderID: iceberg.LastAdded},
	}
	mode := ""
	switch {
	case a.DistributedByPartition:
		mode = "hash"
	case a.Unordered:
		mode = "none"
	case !a.Locally:
		mode = "range"
	}
	if mode != "" {
		updates = append(updates, iceberg.SetPropertiesUpdate{Updates: map[string]string{propDistributionMode: mode}})
	}
	return updates, nil
}
