package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec"
)

func txInt(t *testing.T, tx *sql.Tx, q string, args ...any) int64 {
	t.Helper()
	var n sql.NullInt64
	if err := tx.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n.Int64
}

func TestTxReadYourWritesAndCommit(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE a (id BIGINT)")
	mustExec(t, db, "CREATE TABLE b (id BIGINT)")
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO a VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO b VALUES (3)"); err != nil {
		t.Fatal(err)
	}
	if n := txInt(t, tx, "SELECT count(*) FROM a"); n != 2 {
		t.Fatalf("inside: a = %d, want 2", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM a"); n != 0 {
		t.Fatalf("another connection sees uncommitted rows: %d", n)
	}
	if _, err := tx.Exec("CREATE TABLE c (x INT)"); !errors.Is(err, sqlexec.ErrDDLInTxn) {
		t.Fatalf("DDL in a transaction: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, "SELECT (SELECT count(*) FROM a) + (SELECT count(*) FROM b)"); n != 3 {
		t.Fatalf("after commit: %d rows, want 3", n)
	}
	// Rollback discards.
	tx, _ = db.BeginTx(ctx, nil)
	tx.Exec("INSERT INTO a VALUES (9)")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM a"); n != 2 {
		t.Fatalf("after rollback a = %d, want 2", n)
	}
}

func TestTxOptions(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE a (id BIGINT)")
	tests := []struct {
		level    sql.IsolationLevel
		readOnly bool
		wantErr  error
	}{
		{sql.LevelDefault, false, nil},
		{sql.LevelSerializable, false, nil},
		{sql.LevelSnapshot, false, nil},
		{sql.LevelRepeatableRead, false, nil},
		{sql.LevelReadCommitted, false, driver.ErrIsolationLevel},
		{sql.LevelReadUncommitted, false, driver.ErrIsolationLevel},
		{sql.LevelLinearizable, false, driver.ErrIsolationLevel},
		{sql.LevelSnapshot, true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.level.String(), func(t *testing.T) {
			tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: tc.level, ReadOnly: tc.readOnly})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("BeginTx: %v, want %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			defer tx.Rollback()
			_, err = tx.Exec("INSERT INTO a VALUES (1)")
			if tc.readOnly != errors.Is(err, sqlexec.ErrTxnReadOnly) {
				t.Fatalf("insert (read-only %v): %v", tc.readOnly, err)
			}
		})
	}
}

// SQL BEGIN on a dedicated connection; a pooled connection returned with a
// transaction open is discarded, which rolls the transaction back.
func TestSQLTransactionStatements(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE a (id BIGINT)")
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"BEGIN", "INSERT INTO a VALUES (1)", "COMMIT", "START TRANSACTION", "INSERT INTO a VALUES (2)", "ROLLBACK"} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	c.Close()
	if n := queryInt(t, db, "SELECT count(*) FROM a"); n != 1 {
		t.Fatalf("a = %d, want 1", n)
	}

	db.SetMaxOpenConns(1)
	mustExec(t, db, "BEGIN; INSERT INTO a VALUES (3)")
	if n := queryInt(t, db, "SELECT count(*) FROM a"); n != 1 {
		t.Fatalf("a pooled connection kept its transaction: a = %d, want 1", n)
	}
}

func TestSessionResetRestoresNamespace(t *testing.T) {
	db := openDB(t, t.TempDir())
	db.SetMaxOpenConns(1)
	mustExec(t, db, "CREATE NAMESPACE other")
	mustExec(t, db, "CREATE TABLE other.t (id BIGINT)")
	mustExec(t, db, "USE other")
	// The next use of the pooled connection is back in the default namespace.
	mustExec(t, db, "CREATE TABLE t (id BIGINT)")
	mustExec(t, db, "INSERT INTO default.t VALUES (1)")
	if n := queryInt(t, db, "SELECT count(*) FROM default.t"); n != 1 {
		t.Fatalf("default.t = %d", n)
	}
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
}

func snapshotIDs(t *testing.T, db *sql.DB, table string) []int64 {
	t.Helper()
	rows, err := db.Query("SELECT snapshot_id FROM " + table + ".snapshots ORDER BY committed_at")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}

func TestQueryOptions(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE a (id BIGINT)")
	mustExec(t, db, "INSERT INTO a VALUES (1)")
	time.Sleep(5 * time.Millisecond)
	between := time.Now()
	time.Sleep(5 * time.Millisecond)
	mustExec(t, db, "INSERT INTO a VALUES (2)")
	first := snapshotIDs(t, db, "a")[0]
	tests := []struct {
		name string
		args []any
		want int64
	}{
		{"snapshot id", []any{0, driver.SnapshotID(first)}, 1},
		{"as of", []any{driver.AsOf(between), 0}, 1},
		{"current", []any{0}, 2},
	}
	stmt, err := db.Prepare("SELECT count(*) FROM a WHERE id > ?")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if n := queryInt(t, db, "SELECT count(*) FROM a WHERE id > ?", tc.args...); n != tc.want {
				t.Fatalf("query: %d, want %d", n, tc.want)
			}
			var n int64
			if err := stmt.QueryRow(tc.args...).Scan(&n); err != nil || n != tc.want {
				t.Fatalf("prepared: %d (%v), want %d", n, err, tc.want)
			}
		})
	}
	if _, err := db.Exec("INSERT INTO a VALUES (3)", driver.SnapshotID(first)); !errors.Is(err, sqlexec.ErrReadOptionsWrite) {
		t.Fatalf("write with a snapshot option: %v", err)
	}
}

func TestRawArrow(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE ev (id BIGINT NOT NULL, name STRING)")
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rr := int64Reader(t, 1000, 250)
	var n int64
	err = c.Raw(func(dc any) error {
		ac, ok := dc.(driver.ArrowConn)
		if !ok {
			t.Fatalf("%T is not a driver.ArrowConn", dc)
		}
		n, err = ac.AppendArrow(ctx, "ev", rr)
		return err
	})
	if err != nil || n != 1000 {
		t.Fatalf("AppendArrow: %d rows, %v", n, err)
	}
	if ids := snapshotIDs(t, db, "ev"); len(ids) != 1 {
		t.Fatalf("%d snapshots, want one commit", len(ids))
	}
	var total, rows int64
	err = c.Raw(func(dc any) error {
		r, err := dc.(driver.ArrowConn).QueryArrow(ctx, "SELECT id FROM ev WHERE id >= ?", 500)
		if err != nil {
			return err
		}
		defer r.Release()
		if r.Schema().Field(0).Name != "id" {
			t.Fatalf("schema %s", r.Schema())
		}
		for r.Next() {
			col := r.RecordBatch().Column(0).(*array.Int64)
			for i := 0; i < col.Len(); i++ {
				total += col.Value(i)
			}
			rows += int64(col.Len())
		}
		return r.Err()
	})
	if err != nil || rows != 500 || total != (500+999)*500/2 {
		t.Fatalf("QueryArrow: %d rows, sum %d, %v", rows, total, err)
	}
	// A NULL id violates NOT NULL: nothing is committed.
	bad := nullReader(t)
	err = c.Raw(func(dc any) error {
		_, err := dc.(driver.ArrowConn).AppendArrow(ctx, "ev", bad)
		return err
	})
	if err == nil {
		t.Fatal("NULL into NOT NULL accepted")
	}
	if ids := snapshotIDs(t, db, "ev"); len(ids) != 1 {
		t.Fatalf("a failed append committed: %d snapshots", len(ids))
	}
}

// int64Reader yields rows ids 0..n-1 with names, in batches.
func int64Reader(t testing.TB, n, batch int) array.RecordReader {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	mem := memory.NewGoAllocator()
	var recs []arrow.RecordBatch
	for start := 0; start < n; start += batch {
		b := array.NewRecordBuilder(mem, sc)
		for i := start; i < min(n, start+batch); i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.StringBuilder).Append("name")
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rr, err := array.NewRecordReader(sc, recs)
	if err != nil {
		t.Fatal(err)
	}
	return rr
}

func nullReader(t *testing.T) array.RecordReader {
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	b.Field(0).AppendNull()
	b.Field(1).AppendNull()
	rr, err := array.NewRecordReader(sc, []arrow.RecordBatch{b.NewRecordBatch()})
	if err != nil {
		t.Fatal(err)
	}
	return rr
}

func TestArgumentTypesAndColumnTypes(t *testing.T) {
	db := openDB(t, t.TempDir())
	// UUID arguments are accepted (CheckNamedValue) but not inserted here:
	// the executor cannot cast text to uuid yet.
	mustExec(t, db, "CREATE TABLE v (d DECIMAL(10,2), u STRING, b BINARY, ts TIMESTAMP)")
	stmt, err := db.Prepare("INSERT INTO v VALUES (?, ?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	u, err := iceberg.ParseUUID("123e4567-e89b-12d3-a456-426614174000")
	if err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for i := range 3 {
		if _, err := stmt.Exec(iceberg.Decimal{Unscaled: decimal128.FromI64(int64(125 + i)), Scale: 2}, u, []byte{1, 2, byte(i)}, ts); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	rows, err := db.Query("SELECT d, u, b, ts FROM v ORDER BY d")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"DECIMAL", "STRING", "BINARY", "TIMESTAMP"} // Spark: TIMESTAMP has a zone
	for i, ct := range cts {
		if ct.DatabaseTypeName() != wantNames[i] {
			t.Errorf("column %d type %s, want %s", i, ct.DatabaseTypeName(), wantNames[i])
		}
		if nullable, ok := ct.Nullable(); !ok || !nullable {
			t.Errorf("column %d nullable = %v, %v", i, nullable, ok)
		}
	}
	if p, s, ok := cts[0].DecimalSize(); !ok || p != 10 || s != 2 {
		t.Errorf("DecimalSize = %d, %d, %v", p, s, ok)
	}
	var d, us string
	var b []byte
	var got time.Time
	if !rows.Next() {
		t.Fatal("no rows")
	}
	if err := rows.Scan(&d, &us, &b, &got); err != nil {
		t.Fatal(err)
	}
	if d != "1.25" || us != "123e4567-e89b-12d3-a456-426614174000" || len(b) != 3 || !got.Equal(ts) {
		t.Fatalf("row = %s %s %v %v", d, us, b, got)
	}
	res, err := db.Exec("INSERT INTO v (d) VALUES (1)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.LastInsertId(); !errors.Is(err, driver.ErrNoLastInsertID) {
		t.Fatalf("LastInsertId: %v", err)
	}
}
