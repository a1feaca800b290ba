package driver_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/sqlexec"
)

func TestCopyTo(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "wh")
	db := openDB(t, wh)
	out := t.TempDir()
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE c (id BIGINT, name STRING, d DECIMAL(5,2), tags ARRAY<STRING>)",
		"INSERT INTO c VALUES (1, 'a,b', 1.50, array('x')), (2, NULL, NULL, NULL), (3, 'c', 0.25, array())",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	path := func(name string) string { return filepath.Join(out, name) }
	read := func(name string) string {
		b, err := os.ReadFile(path(name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t.Run("csv with the header by default", func(t *testing.T) {
		res, err := db.Exec("COPY (SELECT id, name, d, tags FROM c ORDER BY id) TO '" + path("a.csv") + "'")
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != 3 {
			t.Fatalf("rows affected %d", n)
		}
		want := "id,name,d,tags\n1,\"a,b\",1.50,\"[\"\"x\"\"]\"\n2,,,\n3,c,0.25,[]\n"
		if got := read("a.csv"); got != want {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
	t.Run("psql spellings", func(t *testing.T) {
		for name, stmt := range map[string]string{
			"b.txt":  "COPY c TO '%s' WITH CSV DELIMITER '|'",
			"c.txt":  "COPY c TO '%s' (FORMAT csv, HEADER false, DELIMITER '|', NULL 'NA')",
			"d.json": "COPY (SELECT id, name, d FROM c WHERE id < 3 ORDER BY id) TO '%s'",
		} {
			if _, err := db.Exec(strings.Replace(stmt, "%s", path(name), 1)); err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		}
		if got := read("b.txt"); !strings.HasPrefix(got, "id|name|d|tags\n") {
			t.Fatalf("b.txt %q", got)
		}
		if got := read("c.txt"); !strings.Contains(got, "2|NA|NA|NA\n") || strings.HasPrefix(got, "id") {
			t.Fatalf("c.txt %q", got)
		}
		if got, want := read("d.json"), "{\"id\":1,\"name\":\"a,b\",\"d\":1.50}\n{\"id\":2,\"name\":null,\"d\":null}\n"; got != want {
			t.Fatalf("d.json %q want %q", got, want)
		}
	})
	t.Run("parquet reads back", func(t *testing.T) {
		rows := db.QueryRow("COPY (SELECT id, name FROM c) TO '" + path("e.parquet") + "' (FORMAT parquet)")
		var n int64
		if err := rows.Scan(&n); err != nil || n != 3 {
			t.Fatalf("count %d, %v", n, err)
		}
		f, err := file.OpenParquetFile(path("e.parquet"), false)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fr, err := pqarrow.NewFileReader(f, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := fr.ReadTable(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tbl.Release()
		if tbl.NumRows() != 3 || tbl.NumCols() != 2 || tbl.Schema().Field(1).Name != "name" {
			t.Fatalf("read back %d rows, schema %v", tbl.NumRows(), tbl.Schema())
		}
	})
	t.Run("refusals", func(t *testing.T) {
		os.WriteFile(path("keep.csv"), []byte("precious"), 0o644)
		tests := []struct {
			stmt string
			is   error
		}{
			{"COPY c TO '" + path("keep.csv") + "'", sqlexec.ErrInvalidStatement},
			{"COPY c TO '" + filepath.Join(wh, "x.csv") + "'", sqlexec.ErrLocation},
			{"COPY c TO '" + filepath.Join(wh, "default.db", "c", "data", "x.parquet") + "'", sqlexec.ErrLocation},
			{"COPY c TO '" + filepath.Join(wh, "catalog.db") + "' (OVERWRITE)", sqlexec.ErrLocation},
			{"COPY c TO '" + path("x.parquet") + "' (HEADER)", sqlexec.ErrInvalidStatement},
			{"COPY c TO '" + path("x.xml") + "'", sqlexec.ErrInvalidStatement},
			{"COPY c TO '" + path("x.csv") + "' (COLOR blue)", sqlexec.ErrInvalidStatement},
		}
		for _, tt := range tests {
			if _, err := db.Exec(tt.stmt); !errors.Is(err, tt.is) {
				t.Errorf("%s: %v, want %v", tt.stmt, err, tt.is)
			}
		}
		if got := read("keep.csv"); got != "precious" {
			t.Fatalf("keep.csv overwritten: %q", got)
		}
		if _, err := os.Stat(path("x.csv")); !os.IsNotExist(err) {
			t.Fatalf("a refused COPY left a file: %v", err)
		}
		if _, err := db.Exec("COPY c TO '" + path("keep.csv") + "' (OVERWRITE true, HEADER false)"); err != nil {
			t.Fatal(err)
		}
		if got := read("keep.csv"); !strings.HasPrefix(got, "1,") {
			t.Fatalf("keep.csv not replaced: %q", got)
		}
	})
	t.Run("allow_copy_to=false", func(t *testing.T) {
		db2 := openDB(t, wh+"?allow_copy_to=false")
		if _, err := db2.Exec("COPY c TO '" + path("off.csv") + "'"); !errors.Is(err, sqlexec.ErrCopyToDisabled) {
			t.Fatalf("got %v", err)
		}
	})
}
