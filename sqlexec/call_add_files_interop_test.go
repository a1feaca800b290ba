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
