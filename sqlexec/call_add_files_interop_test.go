package sqlexec_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/parquettest"
)

// TestAddFilesDuckDBLayout imports files laid out as DuckDB writes them
// (every bit-packed run of levels and dictionary indexes 256 values long,
// the last padded past the page's count) and reads every row back.
func TestAddFilesDuckDBLayout(t *testing.T) {
	db, _ := openWarehouse(t)
	mustExec(t, db, "CREATE TABLE ns.d (id BIGINT, i BIGINT, s STRING, l ARRAY<BIGINT>)")
	src := t.TempDir()
	var want []string
	for _, n := range []int{1, 3, 255, 256, 1000} {
		ids, ints, strs, lists := make([]any, n), make([]any, n), make([]any, n), make([]any, n)
		for k := range n {
			id := int64(len(want))
			ids[k] = id
			row := []string{fmt.Sprint(id), "<nil>", "<nil>", "<nil>"}
			if k%3 != 1 {
				ints[k] = id * 7
				row[1] = fmt.Sprint(id * 7)
			}
			if k%5 != 2 {
				strs[k] = fmt.Sprintf("s%d", k%11)
				row[2] = strs[k].(string)
			}
			switch k % 4 {
			case 0:
				lists[k] = []any{id, nil}
				row[3] = fmt.Sprintf("[%d,null]", id)
			case 1:
				lists[k] = []any{}
				row[3] = "[]"
			}
			want = append(want, strings.Join(row, "|"))
		}
		data, err := parquettest.File(
			parquettest.Column{Name: "id", Kind: parquettest.Int64, Values: ids},
			parquettest.Column{Name: "i", Kind: parquettest.Int64, Values: ints},
			parquettest.Column{Name: "s", Kind: parquettest.String, Dictionary: true, Values: strs},
			parquettest.Column{Name: "l", Kind: parquettest.Int64List, Values: lists},
		)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("rows%d.parquet", n)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	row := callRow(t, db, "CALL system.add_files(table => 'ns.d', source_table => ?)", "`parquet`.`"+src+"`")
	if row["added_files_count"] != int64(5) {
		t.Fatalf("add_files = %v", row)
	}
	got := queryRows(t, db, "SELECT id, i, s, l FROM ns.d ORDER BY id")
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("row %d = %s, want %s", k, got[k], want[k])
		}
	}
}

// writeIDsParquet writes a Parquet file holding only an int64 id column,
// as Hive-style writers lay out partitioned data: the partition value is
// in the directory name, not the file.
func writeIDsParquet(t *testing.T, path string, ids ...int64) {
	t.Helper()
	vals := make([]any, len(ids))
	for i, id := range ids {
		vals[i] = id
	}
	data, err := parquettest.File(parquettest.Column{Name: "id", Kind: parquettest.Int64, Values: vals})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAddFilesHivePartitionValuesProjected: files imported from cat=a/
// directories do not hold cat; reads project the manifest's identity
// partition value for it (the spec's column projection, first rule), in
// the select list, in filters, and through row-level writes.
func TestAddFilesHivePartitionValuesProjected(t *testing.T) {
	db, _ := openWarehouse(t)
	src := t.TempDir()
	writeIDsParquet(t, filepath.Join(src, "cat=a", "n=1", "f.parquet"), 1, 2)
	writeIDsParquet(t, filepath.Join(src, "cat=b", "n=2", "f.parquet"), 3)
	mustExec(t, db, "CREATE TABLE ns.h (id BIGINT, cat STRING, n INT) PARTITIONED BY (cat, n)")
	row := callRow(t, db, "CALL system.add_files(table => 'ns.h', source_table => ?)", "`parquet`.`"+src+"`")
	if row["added_files_count"] != int64(2) {
		t.Fatalf("add_files = %v", row)
	}
	check := func(q, want string) {
		t.Helper()
		if got := strings.Join(queryRows(t, db, q), ","); got != want {
			t.Fatalf("%s = %s, want %s", q, got, want)
		}
	}
	check("SELECT id, cat, n FROM ns.h ORDER BY id", "1|a|1,2|a|1,3|b|2")
	check("SELECT id FROM ns.h WHERE cat = 'b'", "3")
	check("SELECT cat, count(*) FROM ns.h GROUP BY cat ORDER BY cat", "a|2,b|1")
	check("SELECT `partition` FROM ns.h.files ORDER BY file_path", `{"cat":"a","n":1},{"cat":"b","n":2}`)
	mustExec(t, db, "UPDATE ns.h SET id = id + 10 WHERE id = 1")
	check("SELECT id, cat, n FROM ns.h ORDER BY id", "2|a|1,3|b|2,11|a|1")
	mustExec(t, db, "DELETE FROM ns.h WHERE id = 3")
	check("SELECT id, cat, n FROM ns.h ORDER BY id", "2|a|1,11|a|1")
}
