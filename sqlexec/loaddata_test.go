package sqlexec_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/sqlexec"
)

// loadDB is a database/sql handle on a fresh warehouse with table t.
func loadDB(t *testing.T) (*sql.DB, string) {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("iceberg", filepath.Join(dir, "wh"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("CREATE TABLE t (id BIGINT NOT NULL, name STRING, amount DECIMAL(10,2), day DATE, ok BOOLEAN)"); err != nil {
		t.Fatal(err)
	}
	return db, dir
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func loadSnapshots(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM t.snapshots").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestLoadData(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		clauses string
		want    []string // rows "id|name|amount|day|ok" ordered by id
	}{
		{name: "plain", file: "1,a,1.50,2024-01-02,true\n2,b,2,2024-01-03,false\n", want: []string{"1|a|1.50|2024-01-02|true", "2|b|2.00|2024-01-03|false"}},
		{name: "header skipped", file: "id,name,amount,day,ok\n3,c,3.25,2024-02-01,true\n", clauses: "IGNORE 1 LINES", want: []string{"3|c|3.25|2024-02-01|true"}},
		{name: "semicolons, quotes and NULLs", file: "4;\"x;y\";;\\N;\n5;\"say \"\"hi\"\"\";0.01;2024-03-04;true\n", clauses: "FIELDS TERMINATED BY ';' ENCLOSED BY '\"'", want: []string{"4|x;y|NULL|NULL|NULL", `5|say "hi"|0.01|2024-03-04|true`}},
		{name: "column list", file: "b,6\nc,7\n", clauses: "(name, id)", want: []string{"6|b|NULL|NULL|NULL", "7|c|NULL|NULL|NULL"}},
		{name: "crlf", file: "8,h,1,2024-01-01,false\r\n", clauses: "LINES TERMINATED BY '\\r\\n'", want: []string{"8|h|1.00|2024-01-01|false"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, dir := loadDB(t)
			path := writeFile(t, dir, "in.csv", tc.file)
			res, err := db.Exec("LOAD DATA LOCAL INFILE '" + path + "' INTO TABLE t " + tc.clauses)
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := res.RowsAffected(); n != int64(len(tc.want)) {
				t.Fatalf("%d rows affected, want %d", n, len(tc.want))
			}
			rows, err := db.Query("SELECT id, name, amount, day, ok FROM t ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				var id int64
				var name, amount, day, ok sql.NullString
				if err := rows.Scan(&id, &name, &amount, &day, &ok); err != nil {
					t.Fatal(err)
				}
				s := []string{strconv.FormatInt(id, 10)}
				for _, v := range []sql.NullString{name, amount, day, ok} {
					if !v.Valid {
						s = append(s, "NULL")
					} else {
						s = append(s, strings.TrimSuffix(v.String, "T00:00:00Z"))
					}
				}
				got = append(got, strings.Join(s, "|"))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if n := loadSnapshots(t, db); n != 1 {
				t.Fatalf("%d snapshots, want one commit", n)
			}
		})
	}
}

func TestLoadDataRejects(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		clauses  string
		line     int64
		field    int
		column   string
		sentinel error // for statements refused before reading
	}{
		{name: "bad decimal", file: "1,a,1.5,2024-01-01,true\n2,b,lots,2024-01-01,true\n", line: 2, field: 3, column: "amount"},
		{name: "bad date after a header", file: "h\n1,a,1,2024-13-45,true\n", clauses: "IGNORE 1 LINES", line: 2, field: 4, column: "day"},
		{name: "null in required column", file: "\\N,a,1,2024-01-01,true\n", line: 1, field: 1, column: "id"},
		{name: "wrong field count", file: "1,a,1,2024-01-01,true\n2,b\n", line: 2},
		{name: "bad quoting", file: "1,\"a,1,2024-01-01,true\n", line: 1},
		{name: "bad boolean on a later batch line", file: strings.Repeat("1,a,1,2024-01-01,true\n", 9000) + "2,b,1,2024-01-01,maybe\n", line: 9001, field: 5, column: "ok"},
		{name: "replace refused", file: "1,a,1,2024-01-01,true\n", clauses: "REPLACE", sentinel: sqlexec.ErrNotSupported},
		{name: "two-character separator refused", file: "1,a,1,2024-01-01,true\n", clauses: "FIELDS TERMINATED BY '||'", sentinel: sqlexec.ErrNotSupported},
		{name: "unknown column", file: "1\n", clauses: "(nope)", sentinel: sqlexec.ErrInvalidStatement},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, dir := loadDB(t)
			path := writeFile(t, dir, "in.csv", tc.file)
			into := "INTO TABLE t " + tc.clauses
			if tc.clauses == "REPLACE" {
				into = "REPLACE INTO TABLE t"
			}
			_, err := db.Exec("LOAD DATA INFILE '" + path + "' " + into)
			if err == nil {
				t.Fatal("loaded")
			}
			if tc.sentinel != nil {
				if !errors.Is(err, tc.sentinel) {
					t.Fatalf("error %v, want %v", err, tc.sentinel)
				}
			} else {
				var le *sqlexec.LoadDataError
				if !errors.As(err, &le) || !errors.Is(err, sqlexec.ErrLoadData) {
					t.Fatalf("error %T %v, want a *LoadDataError", err, err)
				}
				if le.Line != tc.line || le.Field != tc.field || le.Column != tc.column {
					t.Fatalf("error at line %d field %d column %q, want %d %d %q (%v)", le.Line, le.Field, le.Column, tc.line, tc.field, tc.column, err)
				}
			}
			if n := loadSnapshots(t, db); n != 0 {
				t.Fatalf("%d snapshots after a failed load", n)
			}
			var files int
			filepath.WalkDir(filepath.Join(dir, "wh"), func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".parquet") {
					files++
				}
				return nil
			})
			if files != 0 {
				t.Fatalf("%d data files left behind", files)
			}
		})
	}
}

// Inside a transaction the load is staged: ROLLBACK leaves nothing,
// COMMIT lands it.
func TestLoadDataInTransaction(t *testing.T) {
	for _, end := range []string{"ROLLBACK", "COMMIT"} {
		t.Run(end, func(t *testing.T) {
			db, dir := loadDB(t)
			path := writeFile(t, dir, "in.csv", "1,a,1,2024-01-01,true\n2,b,2,2024-01-02,false\n")
			ctx := context.Background()
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			for _, q := range []string{"BEGIN", "LOAD DATA LOCAL INFILE '" + path + "' INTO TABLE t", end} {
				if _, err := conn.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			want := map[string]int{"ROLLBACK": 0, "COMMIT": 2}[end]
			var n int
			if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil || n != want {
				t.Fatalf("%d rows (%v), want %d", n, err, want)
			}
		})
	}
}
