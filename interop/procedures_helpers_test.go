package interop

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	goiceberg "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	gotable "github.com/apache/iceberg-go/table"

	"github.com/icesql/icesql/internal/sqltest"
)

// procTable is the table the procedure test changes, seen from both
// engines: icesql through database/sql, iceberg-go through its SQL
// catalog on the same catalog file.
type procTable struct {
	db    *sql.DB
	goCat catalog.Catalog
	sc    *arrow.Schema
}

const procSelect = "SELECT id, category, ts, amount FROM ns.t"

// insertIDs inserts the flatSQLRow rows of ids into target (ns.t or a
// branch) in one statement, so one commit.
func (p *procTable) insertIDs(tb testing.TB, target string, ids []int) {
	tb.Helper()
	var sb strings.Builder
	var args []any
	sb.WriteString("INSERT INTO " + target + " VALUES ")
	for n, i := range ids {
		if n > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("(?, ?, ?, ?)")
		for _, v := range flatSQLRow(i) {
			args = append(args, sqlArg(v))
		}
	}
	mustExec(tb, p.db, sb.String(), args...)
}

// want renders the rows of ids as both engines render them.
func (p *procTable) want(tb testing.TB, ids []int) []string {
	tb.Helper()
	rows := make([][]any, 0, len(ids))
	for _, i := range ids {
		rows = append(rows, flatSQLRow(i))
	}
	return expectedRows(tb, p.sc, rows)
}

// callRow runs a CALL and returns its single result row by column name.
func (p *procTable) callRow(tb testing.TB, query string, args ...any) map[string]any {
	tb.Helper()
	rows, err := p.db.Query(query, args...)
	if err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]any{}
	n := 0
	for rows.Next() {
		vals, err := sqltest.ScanRow(rows, len(cols))
		if err != nil {
			tb.Fatal(err)
		}
		for i, c := range cols {
			out[c] = vals[i]
		}
		n++
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	if n != 1 {
		tb.Fatalf("%s: %d result rows, want 1", query, n)
	}
	return out
}

func (p *procTable) queryInt(tb testing.TB, query string, args ...any) int64 {
	tb.Helper()
	var n sql.NullInt64
	if err := p.db.QueryRow(query, args...).Scan(&n); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	return n.Int64
}

// goTable loads the table afresh through iceberg-go's catalog.
func (p *procTable) goTable(tb testing.TB) *gotable.Table {
	tb.Helper()
	return goLoad(tb, p.goCat, goIdent([]string{"ns"}, "t"))
}

// goRowsAt scans one snapshot with iceberg-go.
func goRowsAt(tb testing.TB, t *gotable.Table, snapshotID int64) []string {
	tb.Helper()
	return goRowsWith(tb, t, gotable.WithSnapshotID(snapshotID))
}

// goRowsWith scans with iceberg-go, rendered and sorted.
func goRowsWith(tb testing.TB, t *gotable.Table, opts ...gotable.ScanOption) []string {
	tb.Helper()
	tbl, err := t.Scan(opts...).ToArrowTable(context.Background())
	if err != nil {
		tb.Fatalf("iceberg-go scan: %v", err)
	}
	defer tbl.Release()
	var rows []string
	forEachRecord(tbl, func(rec arrow.RecordBatch) { rows = append(rows, renderRecord(rec)...) })
	return sortRows(rows)
}

// icesqlRefs lists the table's refs as icesql's refs metadata table shows
// them, one "name type snapshot-id" string each, sorted.
func (p *procTable) icesqlRefs(tb testing.TB) []string {
	tb.Helper()
	rows, err := p.db.Query("SELECT name, type, snapshot_id FROM ns.t.refs")
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name, typ string
		var id int64
		if err := rows.Scan(&name, &typ, &id); err != nil {
			tb.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %d", name, strings.ToLower(typ), id))
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func goRefs(t *gotable.Table) (out []string, ids map[string]int64) {
	ids = map[string]int64{}
	for name, ref := range t.Metadata().Refs() {
		out = append(out, fmt.Sprintf("%s %s %d", name, ref.SnapshotRefType, ref.SnapshotID))
		ids[name] = ref.SnapshotID
	}
	slices.Sort(out)
	return out, ids
}

// check is the assertion run after every step: icesql's SELECT returns
// the expected rows of main; iceberg-go returns the same rows, at the same
// current snapshot; both list the same snapshots and refs; and every
// snapshot and every ref reads the same through icesql's VERSION AS OF as
// through iceberg-go's scan (refs with an entry in want also match it).
// It returns iceberg-go's view of the table.
func (p *procTable) check(tb testing.TB, want map[string][]int) *gotable.Table {
	tb.Helper()
	got := sqlRows(tb, p.db, procSelect)
	if ids, ok := want["main"]; ok {
		requireSameRows(tb, "expected", p.want(tb, ids), "icesql SELECT", got)
	}
	goTbl := p.goTable(tb)
	requireSameRows(tb, "icesql SELECT", got, "iceberg-go", goRows(tb, goTbl))

	// Pruning by partition summaries and column bounds the procedures wrote.
	filtered := sqlRows(tb, p.db, procSelect+" WHERE category = 'alpha' AND id >= 140")
	if ids, ok := want["main"]; ok {
		// flatSQLRow's category is alpha when id % 4 == 0.
		kept := without(ids, func(i int) bool { return i%4 != 0 || i < 140 })
		requireSameRows(tb, "expected filtered", p.want(tb, kept), "icesql filtered", filtered)
	}
	goFilter := goiceberg.NewAnd(goiceberg.EqualTo(goiceberg.Reference("category"), "alpha"),
		goiceberg.GreaterThanEqual(goiceberg.Reference("id"), int64(140)))
	requireSameRows(tb, "icesql filtered", filtered, "iceberg-go filtered", goRowsWith(tb, goTbl, gotable.WithRowFilter(goFilter)))

	iceCurrent := p.queryInt(tb, "SELECT snapshot_id FROM ns.t.refs WHERE name = 'main'")
	if cur := goTbl.CurrentSnapshot(); cur == nil || cur.SnapshotID != iceCurrent {
		tb.Fatalf("iceberg-go's current snapshot is %v, icesql's main is %d", cur, iceCurrent)
	}

	iceRefs := p.icesqlRefs(tb)
	goRefList, refIDs := goRefs(goTbl)
	if !slices.Equal(iceRefs, goRefList) {
		tb.Fatalf("refs differ:\nicesql    %v\niceberg-go %v", iceRefs, goRefList)
	}
	for name, id := range refIDs {
		iceAt := sqlRows(tb, p.db, fmt.Sprintf("%s VERSION AS OF '%s'", procSelect, name))
		if ids, ok := want[name]; ok {
			requireSameRows(tb, "expected "+name, p.want(tb, ids), "icesql "+name, iceAt)
		}
		requireSameRows(tb, "icesql "+name, iceAt, "iceberg-go "+name, goRowsAt(tb, goTbl, id))
	}
	for name := range want {
		if _, ok := refIDs[name]; !ok {
			tb.Fatalf("ref %s is missing (refs %v)", name, goRefList)
		}
	}

	iceSnaps := p.icesqlSnapshots(tb)
	goSnapList, goSnaps := goSnapshots(goTbl)
	if !slices.Equal(iceSnaps, goSnapList) {
		tb.Fatalf("snapshots (id parent operation) differ:\nicesql    %v\niceberg-go %v", iceSnaps, goSnapList)
	}
	for _, id := range goSnaps {
		iceAt := sqlRows(tb, p.db, fmt.Sprintf("%s VERSION AS OF %d", procSelect, id))
		requireSameRows(tb, fmt.Sprintf("icesql snapshot %d", id), iceAt,
			fmt.Sprintf("iceberg-go snapshot %d", id), goRowsAt(tb, goTbl, id))
	}
	return goTbl
}

// without returns ids minus those for which drop is true.
func without(ids []int, drop func(int) bool) []int {
	var out []int
	for _, i := range ids {
		if !drop(i) {
			out = append(out, i)
		}
	}
	return out
}

func idRange(from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func concatIDs(parts ...[]int) []int {
	var out []int
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// strings runs query and returns its first column as strings.
func (p *procTable) strings(tb testing.TB, query string, args ...any) []string {
	tb.Helper()
	rows, err := p.db.Query(query, args...)
	if err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals, err := sqltest.ScanRow(rows, len(cols))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals[0]))
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	return out
}

// icesqlSnapshots lists the snapshots as icesql's snapshots metadata table
// shows them, one "id parent operation" string each, sorted.
func (p *procTable) icesqlSnapshots(tb testing.TB) []string {
	tb.Helper()
	rows, err := p.db.Query("SELECT snapshot_id, parent_id, operation FROM ns.t.snapshots")
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id int64
		var parent sql.NullInt64
		var op sql.NullString
		if err := rows.Scan(&id, &parent, &op); err != nil {
			tb.Fatal(err)
		}
		out = append(out, snapshotLine(id, parent.Int64, parent.Valid, op.String))
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// goSnapshots is icesqlSnapshots from iceberg-go's metadata, plus the ids.
func goSnapshots(t *gotable.Table) (out []string, ids []int64) {
	for _, s := range t.Metadata().Snapshots() {
		var parent int64
		if s.ParentSnapshotID != nil {
			parent = *s.ParentSnapshotID
		}
		var op string
		if s.Summary != nil {
			op = string(s.Summary.Operation)
		}
		out = append(out, snapshotLine(s.SnapshotID, parent, s.ParentSnapshotID != nil, op))
		ids = append(ids, s.SnapshotID)
	}
	slices.Sort(out)
	return out, ids
}

func snapshotLine(id, parent int64, hasParent bool, op string) string {
	p := "-"
	if hasParent {
		p = fmt.Sprint(parent)
	}
	return fmt.Sprintf("%d %s %s", id, p, op)
}
