package driver_test

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
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
// Iceberg tables (it is the engine's own test; off by default so that
// engine work in progress does not fail this package).
var withSelect = flag.Bool("select", false, "also run testdata/sql/select through the driver")

// TestSQLLogic runs every testdata/sql/**/*.test file, each on a fresh
// warehouse, through the public driver.
func TestSQLLogic(t *testing.T) {
	root := filepath.Join("..", "testdata", "sql")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "select" && !*withSelect {
			return filepath.SkipDir
		}
		// select/explain.test prints the engine's in-memory test tables.
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".test") && !strings.HasSuffix(p, filepath.Join("select", "explain.test")) {
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
			failures, err := slt.RunFile(sltDB{conn}, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, fl := range failures {
				t.Errorf("%v", fl)
			}
		})
	}
}
