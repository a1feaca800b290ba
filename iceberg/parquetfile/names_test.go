package parquetfile

import (
	"bytes"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestCompatibleName follows Java's AvroSchemaUtil.makeCompatibleName.
func TestCompatibleName(t *testing.T) {
	for in, want := range map[string]string{
		"id": "id", "_x": "_x", "a1": "a1", "é": "é",
		"a b": "a_x20b", "1st": "_1st", "a-b.c": "a_x2Db_x2Ec", "c😀": "c_xD83D_xDE00",
		"$": "_x24", "x/y=z": "x_x2Fy_x3Dz",
	} {
		if got := compatibleName(in); got != want {
			t.Errorf("compatibleName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFooterCarriesIcebergSchema: data files hold the schema JSON under
// iceberg.schema and Java's sanitised column names, and still read back
// by field id.
func TestFooterCarriesIcebergSchema(t *testing.T) {
	s := iceberg.MustSchema(3,
		req(1, "id", iceberg.LongType{}),
		opt(2, "my col", &iceberg.StructType{FieldList: []iceberg.NestedField{opt(3, "1st", iceberg.StringType{})}}),
	)
	rec := randomRecord(s, 10, 1)
	defer rec.Release()
	data, _ := writeFile(t, s, WriterOptions{}, rec)
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	js, ok := r.Metadata(IcebergSchemaKey)
	if !ok {
		t.Fatal("no iceberg.schema key")
	}
	back, err := iceberg.ParseSchemaJSON([]byte(js))
	if err != nil || back.ID != 3 || !back.Equals(s) {
		t.Fatalf("iceberg.schema = %s (%v)", js, err)
	}
	cols := r.file.Root().Columns()
	if cols[1].Name() != "my_x20col" || cols[1].Columns()[0].Name() != "_1st" {
		t.Fatalf("column names %q, %q", cols[1].Name(), cols[1].Columns()[0].Name())
	}
	tbl := readAll(t, data, s, ReadOptions{})
	defer tbl.Release()
	for i, f := range s.Fields() {
		sameValues(t, f.Name, rec.Column(i), column(t, tbl, i))
	}
}
