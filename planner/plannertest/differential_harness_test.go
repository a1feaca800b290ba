package plannertest

import (
	"database/sql"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	_ "github.com/mattn/go-sqlite3"

	"github.com/icesql/icesql/internal/sqltest"
	"github.com/icesql/icesql/sqlexec/slt"
)

// differential holds the two engines a differential test compares: this
// one (on a checked allocator) and an in-memory SQLite.
type differential struct {
	t    *testing.T
	lite *sql.DB
	mem  *memory.CheckedAllocator
	db   *DB
}

// newDifferential opens both engines and runs the setup statements on
// each.
func newDifferential(t *testing.T, setup []string) *differential {
	t.Helper()
	lite, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	d := &differential{t: t, lite: lite, mem: mem, db: NewDB(mem)}
	for _, s := range setup {
		if err := d.db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if _, err := lite.Exec(s); err != nil {
			t.Fatalf("sqlite %s: %v", s, err)
		}
	}
	return d
}

// compare runs q on both engines and reports any difference. It returns
// SQLite's rows, and ok false when this engine failed (reported too).
func (d *differential) compare(q string) (want [][]string, ok bool) {
	d.t.Helper()
	want, err := sqliteRows(d.lite, q)
	if err != nil {
		d.t.Fatalf("sqlite rejected %s: %v", q, err)
	}
	_, got, err := d.db.Query(q)
	if err != nil {
		d.t.Errorf("%s: %v", q, err)
		return want, false
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		d.t.Errorf("%s\n got  %v\n want %v", q, got, want)
	}
	return want, true
}

// compareMany compares n queries made by next (short of them under
// -short), passing SQLite's rows of each query this engine answered to
// check; it returns how many queries it ran.
func (d *differential) compareMany(n, short int, next func() string, check func(q string, want [][]string)) int {
	if testing.Short() {
		n = short
	}
	for i := 0; i < n; i++ {
		q := next()
		if want, ok := d.compare(q); ok {
			check(q, want)
		}
	}
	return n
}

// close closes this engine's catalog and checks that every buffer was
// released.
func (d *differential) close() {
	d.db.Cat.Close()
	d.mem.AssertSize(d.t, 0)
}

// sqliteRows runs q on SQLite and renders each value as this engine's
// Query does.
func sqliteRows(db *sql.DB, q string) ([][]string, error) {
	_, rows, err := sqltest.Rows(db, q)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, vals := range rows {
		row := make([]string, len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				row[i] = "NULL"
			case float64:
				row[i] = slt.FormatFloat(x)
			case []byte:
				row[i] = string(x)
			default:
				row[i] = fmt.Sprint(x)
			}
		}
		out = append(out, row)
	}
	return out, nil
}
