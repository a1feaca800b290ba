package driver_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// fuzzWarehouse is a small warehouse with a table of every type, a
// partitioned table and a merge-on-read table with a delete file.
type fuzzWarehouse struct {
	dir string
	db  *sql.DB
}

var fuzzTables = []string{"all_types", "parts", "mor"}

var fuzzSetup = []string{
	"CREATE TABLE all_types (id BIGINT NOT NULL, s STRING, d DOUBLE, dt DATE, ts TIMESTAMP, b BOOLEAN, `dec` DECIMAL(10,2), i INT, f FLOAT, bin BINARY, u UUID, tm TIME, tz TIMESTAMPTZ, st STRUCT<a: INT, b: STRING>, l ARRAY<INT>, m MAP<STRING, INT>)",
	"INSERT INTO all_types (id, s, d, dt, ts, b, `dec`, i, f, tm) VALUES (1, 'a', 1.5, '2024-01-01', '2024-01-01 10:00:00', true, 1.25, 10, 0.5, '12:00:00'), (2, NULL, -2.5, '2024-02-29', '2024-02-29 23:59:59', false, -3.50, NULL, NULL, NULL), (3, 'ccc', NULL, NULL, NULL, NULL, NULL, 30, 3.25, '00:00:01')",
	"CREATE TABLE parts (id BIGINT, cat STRING, ts TIMESTAMP) PARTITIONED BY (days(ts), bucket(4, id))",
	"INSERT INTO parts VALUES (1, 'x', '2024-01-01 00:00:00'), (2, 'y', '2024-01-02 00:00:00'), (3, NULL, NULL)",
	"CREATE TABLE mor (id BIGINT, v INT) TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')",
	"INSERT INTO mor VALUES (1, 10), (2, 20), (3, 30)",
	"DELETE FROM mor WHERE id = 2",
}

func newFuzzWarehouse(root string) (*fuzzWarehouse, error) {
	dir, err := os.MkdirTemp(root, "wh")
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("iceberg", dir)
	if err != nil {
		return nil, err
	}
	// One session, so that what a statement did to it (USE, BEGIN) is
	// seen by the digest.
	db.SetMaxOpenConns(1)
	for _, q := range fuzzSetup {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	return &fuzzWarehouse{dir: dir, db: db}, nil
}

func (w *fuzzWarehouse) close() {
	w.db.Close()
	os.RemoveAll(w.dir)
}

// digest is everything a write could change: the fixed tables' rows,
// files and snapshots, the namespaces and tables, and every file under the
// warehouse except the catalog's own.
func (w *fuzzWarehouse) digest() (string, error) {
	var b strings.Builder
	for _, tbl := range fuzzTables {
		d, err := tryTableDigest(w.db, tbl)
		if err != nil {
			return "", err
		}
		b.WriteString(d + "\n==\n")
	}
	for _, q := range []string{"SHOW NAMESPACES", "SHOW TABLES"} {
		rows, err := tryQueryStrings(w.db, q)
		if err != nil {
			return "", err
		}
		slices.Sort(rows)
		b.WriteString(strings.Join(rows, "\n") + "\n==\n")
	}
	err := filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), "catalog.db") {
			return err
		}
		rel, _ := filepath.Rel(w.dir, p)
		b.WriteString(rel + "\n")
		return nil
	})
	return b.String(), err
}

// sltStatements reads the SQL of every record in the slt corpora.
func sltStatements(tb testing.TB) []string {
	tb.Helper()
	var out []string
	root := filepath.Join("..", "testdata", "sql")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".test") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		var cur []string
		inSQL := false
		sc := bufio.NewScanner(f)
		flush := func() {
			if len(cur) > 0 {
				out = append(out, strings.Join(cur, "\n"))
			}
			cur, inSQL = nil, false
		}
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "statement ") || strings.HasPrefix(line, "query "):
				flush()
				inSQL = true
			case line == "" || line == "----":
				flush()
			case inSQL && !strings.HasPrefix(line, "#"):
				cur = append(cur, line)
			}
		}
		flush()
		return sc.Err()
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// mutations of a seed statement that tend to reach error paths.
func mutations(s string) []string {
	out := []string{s[:len(s)/2], s + " " + s, strings.ReplaceAll(s, "'", ""), strings.ReplaceAll(s, "(", "((")}
	for _, tbl := range fuzzTables {
		out = append(out, strings.Replace(s, " t ", " "+tbl+" ", 1))
	}
	return out
}

const (
	fuzzStatementTimeout = 2 * time.Second
	maxFuzzDigest        = 64 << 10
)

func FuzzSQL(f *testing.F) {
	seeds := sltStatements(f)
	fuzz := fuzzing()
	for i, s := range seeds {
		// A plain test run takes a third of the corpus to stay fast.
		if fuzz || i%3 == 0 {
			f.Add(s)
		}
	}
	// The mutations only when fuzzing: as plain seeds they take a minute.
	if fuzz {
		for _, s := range seeds {
			for _, m := range mutations(s) {
				f.Add(m)
			}
		}
	}
	for _, s := range []string{
		"SELECT * FROM all_types WHERE st.a = 1 AND l IS NULL",
		"UPDATE mor SET v = 'x'",
		"INSERT INTO parts SELECT id, s, ts FROM all_types",
		"INSERT INTO all_types (id) VALUES (NULL)",
		"DELETE FROM parts WHERE cat = 1",
		"MERGE INTO mor USING parts AS p ON mor.id = p.id WHEN MATCHED THEN UPDATE SET v = p.cat",
		"ALTER TABLE parts ADD PARTITION FIELD bogus(id)",
		"SELECT * FROM mor.entries, mor.files, mor.manifests",
	} {
		f.Add(s)
	}
	root := f.TempDir()
	var wh *fuzzWarehouse
	var before string
	f.Cleanup(func() {
		if wh != nil {
			wh.close()
		}
	})
	f.Fuzz(func(t *testing.T, q string) {
		if wh == nil {
			var err error
			if wh, err = newFuzzWarehouse(root); err != nil {
				t.Fatal(err)
			}
			if before, err = wh.digest(); err != nil {
				t.Fatal(err)
			}
		}
		err := runBounded(t, wh.db, q)
		if err != nil && err.Error() == "" {
			t.Fatalf("%q: error with an empty message (%T)", q, err)
		}
		after, derr := wh.digest()
		if derr != nil && err == nil {
			// It renamed or dropped a fixture table: start afresh.
			wh.close()
			wh = nil
			return
		}
		if derr != nil {
			wh.close()
			wh = nil
			t.Fatalf("after %q (err %v) the warehouse is unreadable: %v", q, err, derr)
		}
		if err != nil && after != before && !errors.Is(err, iceberg.ErrCommitStateUnknown) {
			wh.close()
			wh = nil
			t.Fatalf("failed statement %q (%v) changed the warehouse:\n%s\nwas\n%s", q, err, after, before)
		}
		if err == nil && after != before && readOnlyStatement(q) {
			t.Fatalf("query %q changed the warehouse:\n%s\nwas\n%s", q, after, before)
		}
		before = after
		if len(before) > maxFuzzDigest {
			// Successful writes grew the tables: start afresh.
			wh.close()
			wh = nil
		}
	})
}

// readOnlyStatement: q cannot have changed the warehouse or the session.
func readOnlyStatement(q string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(q), " ")
	switch strings.ToUpper(w) {
	case "SELECT", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "WITH", "VALUES":
		return true
	}
	return false
}

// runBounded runs q. While fuzzing, random statements may run for
// ever, so each gets a deadline, and one that ignores it for minutes is
// reported as hung; a plain test run (the seed corpus) sets no deadline
// and leaves hangs to go test -timeout, so a loaded machine cannot fail it.
func runBounded(t *testing.T, db *sql.DB, q string) error {
	if !fuzzing() {
		return execOrQuery(context.Background(), db, q)
	}
	ctx, cancel := context.WithTimeout(context.Background(), fuzzStatementTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- execOrQuery(ctx, db, q) }()
	select {
	case err := <-done:
		if err != nil && ctx.Err() != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Logf("%q: after the deadline: %v", q, err)
		}
		return err
	case <-time.After(fuzzStatementTimeout + 5*time.Minute):
		t.Fatalf("%q: hung: still running minutes after its deadline", q)
		return nil
	}
}

func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
