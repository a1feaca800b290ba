package duck

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rowCounts hit the edges of Parquet's run encodings: a single row, a
// partial group of 8, one short of and exactly 256 (DuckDB's padded
// bit-packed runs), and more than one row group.
var rowCounts = []int{1, 3, 255, 256, 1000, 100001}

// TestDuckDBRoundTrip: Parquet that DuckDB writes, of every type, nullable,
// imported with add_files and with the shell's \copy, reads back in icesql
// as DuckDB reads it; and the data files icesql writes from those rows
// (partitioned, so several files) read in DuckDB as the original.
func TestDuckDBRoundTrip(t *testing.T) {
	for _, n := range rowCounts {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			wh := t.TempDir()
			duck := openDuck(t)
			ice := openIce(t, wh)
			// DuckDB writes the source file inside the warehouse, in
			// row groups of 10,000 rows.
			src := filepath.Join(wh, "import", "data.parquet")
			if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
				t.Fatal(err)
			}
			mustExec(t, duck, fmt.Sprintf("COPY (SELECT %s FROM range(%d) r(i)) TO %s (FORMAT parquet, ROW_GROUP_SIZE 10000)",
				duckSelect(), n, sqlString(src)))
			want := readRows(t, duck, kinds(), fmt.Sprintf("SELECT %s FROM read_parquet(%s) ORDER BY id", duckReadList(), sqlString(src)))
			if len(want) != n {
				t.Fatalf("DuckDB reads %d rows of %d", len(want), n)
			}
			iceRead := fmt.Sprintf("SELECT %s FROM %%s ORDER BY id", iceReadList())

			t.Run("add_files", func(t *testing.T) {
				mustExec(t, ice, "CREATE TABLE added ("+iceColumns()+")")
				mustExec(t, ice, "CALL system.add_files(table => 'added', source_table => ?)", "`parquet`.`"+filepath.Dir(src)+"`")
				requireSame(t, "DuckDB", want, "icesql after add_files", readRows(t, ice, kinds(), fmt.Sprintf(iceRead, "added")))
			})
			t.Run("copy", func(t *testing.T) {
				mustExec(t, ice, "CREATE TABLE copied ("+iceColumns()+")")
				shell(t, wh, `\copy copied FROM `+sqlString(src))
				requireSame(t, "DuckDB", want, "icesql after \\copy", readRows(t, ice, kinds(), fmt.Sprintf(iceRead, "copied")))
			})
			t.Run("icesql writes, DuckDB reads", func(t *testing.T) {
				mustExec(t, ice, "CREATE TABLE written ("+iceColumns()+") PARTITIONED BY (bucket(3, id), b)")
				mustExec(t, ice, fmt.Sprintf("INSERT INTO written SELECT %s FROM added", iceReadList()))
				files := dataFiles(t, ice, "written")
				// hive_partitioning is off: DuckDB would otherwise take b
				// from the b=true/ directory names of icesql's files, as text.
				got := readRows(t, duck, kinds(), fmt.Sprintf("SELECT %s FROM read_parquet([%s], hive_partitioning = false) ORDER BY id", duckReadList(), strings.Join(files, ", ")))
				requireSame(t, "DuckDB of its own file", want, "DuckDB of icesql's files", got)
			})
		})
	}
}

// dataFiles lists the table's data files as SQL string literals, each
// checked to be a plain path of an existing file: DuckDB, like Java,
// takes a location literally.
func dataFiles(t *testing.T, ice *sql.DB, table string) []string {
	t.Helper()
	rows, err := ice.Query("SELECT file_path FROM " + table + ".files")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("data file location %q is not a literal path of a file: %v", p, err)
		}
		out = append(out, sqlString(p))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s has no data files", table)
	}
	return out
}
