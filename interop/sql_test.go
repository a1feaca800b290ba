package interop

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	goiceberg "github.com/apache/iceberg-go"
	gotable "github.com/apache/iceberg-go/table"
	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/sqltest"
)

// flatSQLRow is row i of the SQL-level tests: the columns SQL literals
// and parameters cover exactly (id, category, ts, amount), with nulls.
func flatSQLRow(i int) []any {
	cats := []any{"alpha", "beta", "gamma", nil}
	var ts any = iceberg.Timestamp(fixtureEpoch.Add(time.Duration(i) * 97 * time.Minute).UnixMicro())
	if i%13 == 5 {
		ts = nil
	}
	var amount any = float64(i)*0.5 - 20
	if i%9 == 4 {
		amount = nil
	}
	return []any{int64(i), cats[i%len(cats)], ts, amount}
}

// flatSchema is the Iceberg schema CREATE TABLE makes of flatSQLColumns.
func flatSchema(tb testing.TB) *iceberg.Schema {
	tb.Helper()
	s, err := iceberg.NewSchema(0, []iceberg.NestedField{
		{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
		{ID: 2, Name: "category", Type: iceberg.StringType{}},
		{ID: 3, Name: "ts", Type: iceberg.TimestampTzType{}},
		{ID: 4, Name: "amount", Type: iceberg.DoubleType{}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

const flatSQLColumns = "id BIGINT NOT NULL, category STRING, ts TIMESTAMP, amount DOUBLE"

// sqlArg turns a fixture value into a database/sql argument.
func sqlArg(v any) any {
	if ts, ok := v.(iceberg.Timestamp); ok {
		return time.UnixMicro(int64(ts)).UTC()
	}
	return v
}

// sqlRows runs query and renders its rows as renderRecord does.
func sqlRows(tb testing.TB, db *sql.DB, query string) []string {
	tb.Helper()
	out, err := sqlRowsErr(tb, db, query)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func sqlRowsErr(tb testing.TB, db *sql.DB, query string) ([]string, error) {
	tb.Helper()
	cols, rows, err := sqltest.Rows(db, query)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, vals := range rows {
		parts := make([]string, len(cols))
		for i, v := range vals {
			parts[i] = cols[i] + "=" + renderSQLValue(tb, v)
		}
		out = append(out, strings.Join(parts, " | "))
	}
	return sortRows(out), nil
}

func renderSQLValue(tb testing.TB, v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return "l" + strconv.FormatInt(x, 10)
	case float64:
		return "d" + renderFloat(x, 64)
	case string:
		return strconv.Quote(x)
	case time.Time:
		return "tstz" + strconv.FormatInt(x.UnixMicro(), 10)
	}
	tb.Fatalf("no rendering for SQL value %T", v)
	return ""
}

func openSQL(tb testing.TB, dir string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("iceberg", dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func mustExec(tb testing.TB, db *sql.DB, query string, args ...any) {
	tb.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
}

// TestSQLWritesIcebergGoReads: tables created, filled and deleted from
// through database/sql; iceberg-go's scan returns what SELECT returns.
func TestSQLWritesIcebergGoReads(t *testing.T) {
	dir := t.TempDir()
	db := openSQL(t, dir)
	mustExec(t, db, "CREATE NAMESPACE lake")
	mustExec(t, db, "CREATE TABLE lake.events ("+flatSQLColumns+") PARTITIONED BY (category, days(ts), bucket(4, id))")
	const n = 120
	for batch := 0; batch < 3; batch++ {
		// One multi-row INSERT per batch: one commit each.
		var sb strings.Builder
		var args []any
		sb.WriteString("INSERT INTO lake.events VALUES ")
		for i := batch * n / 3; i < (batch+1)*n/3; i++ {
			if len(args) > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("(?, ?, ?, ?)")
			for _, v := range flatSQLRow(i) {
				args = append(args, sqlArg(v))
			}
		}
		mustExec(t, db, sb.String(), args...)
	}
	mustExec(t, db, "DELETE FROM lake.events WHERE category = 'beta'")

	var kept [][]any
	for i := 0; i < n; i++ {
		if r := flatSQLRow(i); r[1] != "beta" {
			kept = append(kept, r)
		}
	}
	got := sqlRows(t, db, "SELECT id, category, ts, amount FROM lake.events")
	requireSameRows(t, "inserted", expectedRows(t, arrowOf(t, flatSchema(t)), kept), "SQL SELECT", got)
	goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, "events"))
	requireSameRows(t, "SQL SELECT", got, "iceberg-go", goRows(t, goTbl))
	if s := len(goTbl.Metadata().Snapshots()); s != 4 {
		t.Fatalf("iceberg-go sees %d snapshots, want 4 (3 inserts, 1 delete)", s)
	}
}

// TestIcebergGoWritesSQLReads: iceberg-go creates, appends to and deletes
// from (position and equality deletes) a table; SELECT through
// database/sql returns the rows iceberg-go's scan returns.
func TestIcebergGoWritesSQLReads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	schema := flatSchema(t)
	gs := goSchema(t, schema)
	spec := goiceberg.NewPartitionSpec(
		goiceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "category", Transform: goiceberg.IdentityTransform{}},
		goiceberg.PartitionField{SourceIDs: []int{1}, FieldID: 1001, Name: "id_bucket", Transform: goiceberg.BucketTransform{NumBuckets: 4}},
	)
	ident := goIdent([]string{"lake"}, "events")
	goTbl := goCreateTable(t, goCat, dir, ident, gs, &spec, goiceberg.Properties{gotable.WriteDeleteModeKey: gotable.WriteModeMergeOnRead})
	sc := arrowOf(t, schema)
	const n = 160
	for _, part := range [][2]int{{0, 80}, {80, n}} {
		var rows [][]any
		for i := part[0]; i < part[1]; i++ {
			rows = append(rows, flatSQLRow(i))
		}
		rec := buildRecord(t, sc, rows)
		goTbl = goAppend(t, goTbl, rec)
		rec.Release()
	}
	db := openSQL(t, dir)
	const query = "SELECT id, category, ts, amount FROM lake.events"
	t.Run("after appends", func(t *testing.T) {
		requireSameRows(t, "iceberg-go", goRows(t, goTbl), "SQL SELECT", sqlRows(t, db, query))
	})

	var posDel []int64
	for i := int64(0); i < n; i += 10 {
		posDel = append(posDel, i+3)
	}
	tx := goTbl.NewTransaction()
	if err := tx.Delete(ctx, goiceberg.IsIn(goiceberg.Reference("id"), posDel...), nil); err != nil {
		t.Fatal(err)
	}
	goTbl, err := tx.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var eqRows [][]any
	for i := 4; i < n; i += 10 {
		r := flatSQLRow(i)
		eqRows = append(eqRows, []any{r[0], r[1]})
	}
	eqRec := buildRecord(t, arrowSelect(t, sc, "id", "category"), eqRows)
	tx = goTbl.NewTransaction()
	files, err := tx.WriteEqualityDeletes(ctx, []int{1}, oneBatch(eqRec))
	eqRec.Release()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.NewRowDelta(nil).AddDeletes(files...).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if goTbl, err = tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	iceTbl := openIce(t, filepath.Join(dir, "catalog.db"), dir, false).load(t, table.Identifier{Namespace: []string{"lake"}, Name: "events"})
	requireDeleteKinds(t, iceTbl)

	want := goRows(t, goTbl)
	if len(want) != n-2*n/10 {
		t.Fatalf("iceberg-go returns %d rows, want %d", len(want), n-2*n/10)
	}
	t.Run("after deletes", func(t *testing.T) {
		got, err := sqlRowsErr(t, db, query)
		t.Logf("unsorted position delete file: %v", unsortedPositionDeletes(t, iceTbl))
		if err != nil {
			t.Fatal(err)
		}
		requireSameRows(t, "iceberg-go", want, "SQL SELECT", got)
		var count int64
		if err := db.QueryRow("SELECT count(*) FROM lake.events WHERE category = 'alpha'").Scan(&count); err != nil {
			t.Fatal(err)
		}
		if wantAlpha := countMatching(want, `category="alpha"`); count != int64(wantAlpha) {
			t.Fatalf("filtered count %d, want %d", count, wantAlpha)
		}
	})
}

func countMatching(rows []string, part string) int {
	n := 0
	for _, r := range rows {
		if strings.Contains(r, part) {
			n++
		}
	}
	return n
}
