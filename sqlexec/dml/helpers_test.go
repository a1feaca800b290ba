package dml_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec"
	"github.com/icesql/icesql/sqlexec/dml"
	"github.com/icesql/icesql/sqlexec/exec"
)

// lake is a warehouse opened through database/sql, plus an engine on the
// same warehouse for reading table state directly.
type lake struct {
	t   testing.TB
	dir string
	db  *sql.DB
	eng *sqlexec.Engine
}

func newLake(t testing.TB) *lake {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("iceberg", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	l := &lake{t: t, dir: dir, db: db}
	l.exec("CREATE NAMESPACE IF NOT EXISTS default")
	eng, err := sqlexec.Open(context.Background(), sqlexec.Config{Warehouse: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	l.eng = eng
	return l
}

// second opens another database/sql handle on the warehouse (another
// engine, as another process would).
func (l *lake) second() *sql.DB {
	db, err := sql.Open("iceberg", l.dir)
	if err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() { db.Close() })
	return db
}

func (l *lake) exec(q string, args ...any) int64 {
	l.t.Helper()
	res, err := l.db.Exec(q, args...)
	if err != nil {
		l.t.Fatalf("%s: %v", q, err)
	}
	n, _ := res.RowsAffected()
	return n
}

func (l *lake) table(name string) *table.Table {
	l.t.Helper()
	t, err := table.Load(context.Background(), l.eng.Env(), table.Identifier{Namespace: []string{"default"}, Name: name})
	if err != nil {
		l.t.Fatal(err)
	}
	return t
}

// rows reads a table's live rows (deletes applied) as sorted text lines.
func (l *lake) rows(name string) []string {
	l.t.Helper()
	recs, err := dml.ReadTable(context.Background(), l.table(name))
	if err != nil {
		l.t.Fatalf("read %s: %v", name, err)
	}
	defer exec.ReleaseAll(recs)
	var out []string
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			parts := make([]string, r.NumCols())
			for c := range parts {
				parts[c] = formatValue(exec.ValueAt(r.Column(c), i))
			}
			out = append(out, strings.Join(parts, " "))
		}
	}
	slices.Sort(out)
	return out
}

func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case float64:
		return fmt.Sprintf("%.2f", x)
	case float32:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprint(v)
}

func (l *lake) summary(name string) map[string]string {
	l.t.Helper()
	s := l.table(name).Metadata().CurrentSnapshot()
	if s == nil {
		l.t.Fatalf("%s has no snapshot", name)
	}
	m := map[string]string{"operation": string(s.Operation())}
	for k, v := range s.Summary {
		m[k] = v
	}
	return m
}

func equalRows(t testing.TB, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\ngot  %q\nwant %q", what, got, want)
	}
}

var modes = []string{"copy-on-write", "merge-on-read"}

// setModes sets the write mode of every row-level operation.
func (l *lake) setModes(name, mode string) {
	l.exec(fmt.Sprintf("ALTER TABLE %s SET TBLPROPERTIES ('write.delete.mode'='%s', 'write.update.mode'='%s', 'write.merge.mode'='%s')", name, mode, mode, mode))
}
