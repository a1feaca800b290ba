package interop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewritePositionDeletesIcebergGoReads: after rewrite_position_delete_files
// compacts a partitioned v2 table's position delete files, iceberg-go reads
// every snapshot as icesql does.
func TestRewritePositionDeletesIcebergGoReads(t *testing.T) {
	dir := t.TempDir()
	p := &procTable{db: openSQL(t, dir), sc: arrowOf(t, flatSchema(t))}
	p.goCat = openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	mustExec(t, p.db, "CREATE NAMESPACE ns")
	mustExec(t, p.db, "CREATE TABLE ns.t ("+flatSQLColumns+") PARTITIONED BY (category) "+
		"TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'format-version'='2')")
	p.insertIDs(t, "ns.t", idRange(0, 100))
	p.insertIDs(t, "ns.t", idRange(100, 160))
	mustExec(t, p.db, "DELETE FROM ns.t WHERE id % 7 = 3")
	mustExec(t, p.db, "DELETE FROM ns.t WHERE id % 5 = 1")
	want := map[string][]int{"main": without(idRange(0, 160), func(i int) bool { return i%7 == 3 || i%5 == 1 })}
	before := p.queryInt(t, "SELECT count(*) FROM ns.t.delete_files")
	row := p.callRow(t, "CALL system.rewrite_position_delete_files(table => 'ns.t', options => map('rewrite-all', 'true'))")
	if row["rewritten_delete_files_count"] != int32(before) {
		t.Fatalf("rewrite = %v, want all %d delete files rewritten", row, before)
	}
	if after := p.queryInt(t, "SELECT count(*) FROM ns.t.delete_files"); after >= before {
		t.Fatalf("delete files %d -> %d, want fewer", before, after)
	}
	p.check(t, want)
}

// TestAddFilesIcebergGoReads: Parquet files imported by add_files (copies of
// another table's data files) read the same through iceberg-go.
func TestAddFilesIcebergGoReads(t *testing.T) {
	dir := t.TempDir()
	p := &procTable{db: openSQL(t, dir), sc: arrowOf(t, flatSchema(t))}
	p.goCat = openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	mustExec(t, p.db, "CREATE NAMESPACE ns")
	mustExec(t, p.db, "CREATE TABLE ns.src ("+flatSQLColumns+")")
	p.insertIDs(t, "ns.src", idRange(0, 80))
	p.insertIDs(t, "ns.src", idRange(80, 160))
	importDir := t.TempDir()
	for i, path := range p.strings(t, "SELECT file_path FROM ns.src.files") {
		data, err := os.ReadFile(strings.TrimPrefix(path, "file://"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(importDir, "part-"+string(rune('a'+i))+".parquet"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustExec(t, p.db, "CREATE TABLE ns.t ("+flatSQLColumns+")")
	row := p.callRow(t, "CALL system.add_files(table => 'ns.t', source_table => ?)", "`parquet`.`"+importDir+"`")
	if row["added_files_count"] != int64(2) {
		t.Fatalf("add_files = %v", row)
	}
	p.check(t, map[string][]int{"main": idRange(0, 160)})
}
