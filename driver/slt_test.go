package driver_test

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icesql/icesql/internal/sqltest"
	"github.com/icesql/icesql/sqlexec/slt"
)

// sltDB runs sqllogictest records through database/sql on one
// connection, so USE and transactions carry over between records as in a
// shell (a pooled *sql.DB resets the session between statements).
type sltDB struct{ db *sql.Conn }

func (d sltDB) Exec(q string) error {
	_, err := d.db.ExecContext(context.Background(), q)
	return err
}

func (d sltDB) Query(q string) ([]string, [][]string, error) {
	rows, err := d.db.QueryContext(context.Background(), q)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, err
	}
	var out [][]string
	for rows.Next() {
		vals, err := sqltest.ScanRow(rows, len(cols))
		if err != nil {
			return nil, nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = render(v, types[i].DatabaseTypeName())
		}
		out = append(out, row)
	}
	return cols, out, rows.Err()
}

// render prints a value the way the slt files spell it.
func render(v any, typeName string) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		return strconv.FormatBool(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float32:
		return slt.FormatFloat(float64(x))
	case float64:
		return slt.FormatFloat(x)
	case time.Time:
		if typeName == "DATE" {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05.999999")
	case []byte:
		return string(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// withSelect also runs the engine's testdata/sql/select corpus over
// Iceberg tables. It is on by default (a few seconds); -select=false
// leaves it to the engine's own test while engine work is in progress.
var withSelect = flag.Bool("select", true, "also run testdata/sql/select through the driver")

// The select corpus's EXPLAIN results end with one line per scanned table
// describing its source: the engine's in-memory test tables there,
// Iceberg scans here. Both sides drop those lines and compare the plans.
var (
	memScanDetail     = regexp.MustCompile(`^\S+: batches=\d+ filters=\d+$`)
	icebergScanDetail = regexp.MustCompile(`^\S+: iceberg \S+( snapshot=\d+: |: no snapshot$)`)
)

// engineNeutralDB drops the Iceberg scan lines of EXPLAIN results.
type engineNeutralDB struct{ sltDB }

func (d engineNeutralDB) Query(q string) ([]string, [][]string, error) {
	cols, rows, err := d.sltDB.Query(q)
	if err != nil || !isExplain(q) {
		return cols, rows, err
	}
	kept := rows[:0]
	for _, r := range rows {
		if len(r) == 1 && icebergScanDetail.MatchString(r[0]) {
			continue
		}
		kept = append(kept, r)
	}
	return cols, kept, nil
}

func isExplain(q string) bool {
	f := strings.Fields(q)
	return len(f) > 0 && strings.EqualFold(f[0], "EXPLAIN")
}

// runSelectCorpusFile runs a select/ file with its in-memory scan lines
// dropped from EXPLAIN expectations.
func runSelectCorpusFile(db sltDB, path string) ([]slt.Failure, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := slt.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var fails []slt.Failure
	for _, r := range recs {
		if r.Kind == slt.Query && isExplain(r.SQL) {
			var want []string
			for _, l := range r.Expect {
				if !memScanDetail.MatchString(l) {
					want = append(want, l)
				}
			}
			r.Expect = want
		}
		if msg := slt.RunRecord(engineNeutralDB{db}, r); msg != "" {
			fails = append(fails, slt.Failure{Record: r, Msg: msg})
		}
	}
	return fails, nil
}

// TestSQLLogic runs every testdata/sql/**/*.test file, each on a fresh
// warehouse, through the public driver.
func TestSQLLogic(t *testing.T) {
	root := filepath.Join("..", "testdata", "sql")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "select" && !*withSelect {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".test") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name, _ := filepath.Rel(root, f)
		t.Run(name, func(t *testing.T) {
			db := openDB(t, t.TempDir())
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			run := slt.RunFile
			if filepath.Base(filepath.Dir(f)) == "select" {
				run = func(_ slt.DB, p string) ([]slt.Failure, error) { return runSelectCorpusFile(sltDB{conn}, p) }
			}
			failures, err := run(sltDB{conn}, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, fl := range failures {
				t.Errorf("%v", fl)
			}
		})
	}
}
