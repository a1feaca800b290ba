package sqlexec_test

import (
	"os"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/icesql/icesql/iceberg"
)

// TestDataFilesCarryIcebergSchema: data files written through SQL hold the
// table schema under the iceberg.schema footer key and column names
// sanitised as Java's AvroSchemaUtil.makeCompatibleName, so name-based
// readers find oddly named and evolved columns.
func TestDataFilesCarryIcebergSchema(t *testing.T) {
	db, _ := openWarehouse(t)
	mustExec(t, db, "CREATE TABLE ns.f (id BIGINT, `my col` STRING, `1st` INT)")
	mustExec(t, db, "INSERT INTO ns.f VALUES (1, 'a', 2)")
	mustExec(t, db, "ALTER TABLE ns.f RENAME COLUMN id TO `key`")
	mustExec(t, db, "INSERT INTO ns.f VALUES (3, 'b', 4)")
	files := queryRows(t, db, "SELECT file_path FROM ns.f.files ORDER BY file_path")
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	seen := map[string]bool{}
	for _, loc := range files {
		data, err := os.ReadFile(literalPath(t, loc))
		if err != nil {
			t.Fatal(err)
		}
		pf, err := parquet.OpenFile(strings.NewReader(string(data)), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		js, ok := pf.Lookup("iceberg.schema")
		if !ok {
			t.Fatalf("%s: no iceberg.schema footer key", loc)
		}
		s, err := iceberg.ParseSchemaJSON([]byte(js))
		if err != nil {
			t.Fatalf("%s: iceberg.schema: %v", loc, err)
		}
		first := s.Fields()[0].Name
		seen[first] = true
		var names []string
		for _, c := range pf.Root().Columns() {
			names = append(names, c.Name())
		}
		if got := strings.Join(names, ","); got != first+",my_x20col,_1st" {
			t.Fatalf("%s: column names %s", loc, got)
		}
	}
	if !seen["id"] || !seen["key"] {
		t.Fatalf("schemas of the two files: %v, want one before and one after the rename", seen)
	}
	if got := strings.Join(queryRows(t, db, "SELECT `key`, `my col`, `1st` FROM ns.f ORDER BY `key`"), ","); got != "1|a|2,3|b|4" {
		t.Fatalf("rows %s", got)
	}
}
