package load

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/icesql/icesql/iceberg"
)

// A legacy 2-level list whose repeated group is itself a LIST (the
// shape of parquet-testing's old_list_structure.parquet) loads as a
// list of lists, as LogicalTypes.md and add_files read it; pqarrow alone
// reads it as a list of one-field structs, which \copy refused.
func TestParquetLegacyListOfLists(t *testing.T) {
	inner := schema.NewInt32Node("array", parquet.Repetitions.Repeated, -1)
	mid, err := schema.NewGroupNodeConverted("array", parquet.Repetitions.Repeated, schema.FieldList{inner}, schema.ConvertedTypes.List, -1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := schema.NewGroupNodeConverted("a", parquet.Repetitions.Optional, schema.FieldList{mid}, schema.ConvertedTypes.List, -1)
	if err != nil {
		t.Fatal(err)
	}
	root, err := schema.NewGroupNode("hive_schema", parquet.Repetitions.Required, schema.FieldList{a}, -1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old_list.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := file.NewParquetWriter(f, root)
	rg := w.AppendRowGroup()
	cw, err := rg.NextColumn()
	if err != nil {
		t.Fatal(err)
	}
	// row 1 [[1, 2], [3, 4]]; row 2 NULL
	if _, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch([]int32{1, 2, 3, 4}, []int16{3, 3, 3, 3, 0}, []int16{0, 2, 1, 2, 0}); err != nil {
		t.Fatal(err)
	}
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := rg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cols := []Column{{Name: "a", Type: &iceberg.ListType{Element: &iceberg.ListType{Element: iceberg.IntType{}}}}}
	r, err := Open(path, cols, Options{Format: "parquet"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var got []string
	for r.Next() {
		rec := r.RecordBatch()
		for i := range int(rec.NumRows()) {
			got = append(got, rec.Column(0).ValueStr(i))
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "[[1,2],[3,4]]" || got[1] != "(null)" {
		t.Fatalf("got %q, want [[1,2],[3,4]] and NULL", got)
	}
}
