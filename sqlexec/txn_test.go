package sqlexec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

func mustExec(t *testing.T, s *Session, sql string, args ...any) Result {
	t.Helper()
	res, err := s.Exec(context.Background(), sql, args)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res
}

func count(t *testing.T, s *Session, sql string) int64 {
	t.Helper()
	p, err := s.Prepare(sql)
	if err != nil {
		t.Fatal(err)
	}
	return queryInt(t, p)
}

// dataFiles counts the files under a table's data directory.
func dataFiles(t *testing.T, s *Session, name string) int {
	t.Helper()
	n := 0
	dir := filepath.Join(s.engine.cfg.Warehouse, "default.db", name, "data")
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func TestTxnReadYourWritesAndIsolation(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	other := s.engine.NewSession()
	mustExec(t, s, "CREATE TABLE a (id BIGINT)")
	mustExec(t, s, "CREATE TABLE b (id BIGINT)")
	mustExec(t, s, "INSERT INTO a VALUES (1)")

	mustExec(t, s, "BEGIN")
	if !s.InTxn() {
		t.Fatal("BEGIN did not open a transaction")
	}
	if got := count(t, s, "SELECT count(*) FROM a"); got != 1 {
		t.Fatalf("a = %d, want 1", got)
	}
	// A commit by another session after the pin stays invisible.
	mustExec(t, other, "INSERT INTO b VALUES (10), (11)")
	if got := count(t, s, "SELECT count(*) FROM b"); got != 0 {
		t.Fatalf("pinned view sees another session's later commit: b = %d", got)
	}
	mustExec(t, s, "INSERT INTO a VALUES (2), (3)")
	mustExec(t, s, "INSERT INTO b VALUES (20)")
	if got := count(t, s, "SELECT count(*) FROM a"); got != 3 {
		t.Fatalf("own write not visible: a = %d, want 3", got)
	}
	if got := count(t, other, "SELECT count(*) FROM a"); got != 1 {
		t.Fatalf("uncommitted write visible to another session: a = %d", got)
	}
	mustExec(t, s, "COMMIT")
	if s.InTxn() {
		t.Fatal("COMMIT left the transaction open")
	}
	if got := count(t, other, "SELECT count(*) FROM a"); got != 3 {
		t.Fatalf("after COMMIT a = %d, want 3", got)
	}
	if got := count(t, other, "SELECT count(*) FROM b"); got != 3 {
		t.Fatalf("after COMMIT b = %d, want 3 (re-applied onto the other commit)", got)
	}
	_ = ctx
}

func TestTxnRollbackRemovesFiles(t *testing.T) {
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE a (id BIGINT)")
	mustExec(t, s, "INSERT INTO a VALUES (1)")
	before := dataFiles(t, s, "a")
	mustExec(t, s, "START TRANSACTION")
	mustExec(t, s, "INSERT INTO a VALUES (2)")
	mustExec(t, s, "INSERT INTO a VALUES (3)")
	if dataFiles(t, s, "a") != before+2 {
		t.Fatal("staged inserts wrote no data files")
	}
	mustExec(t, s, "ROLLBACK")
	if got := dataFiles(t, s, "a"); got != before {
		t.Fatalf("after ROLLBACK %d data files, want %d", got, before)
	}
	if got := count(t, s, "SELECT count(*) FROM a"); got != 1 {
		t.Fatalf("after ROLLBACK a = %d, want 1", got)
	}
}

func TestTxnErrors(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE a (id BIGINT NOT NULL)")
	tests := []struct {
		name string
		sql  string
		want error
	}{
		{"ddl create", "CREATE TABLE c (id INT)", ErrDDLInTxn},
		{"ddl drop", "DROP TABLE a", ErrDDLInTxn},
		{"ddl alter", "ALTER TABLE a ADD COLUMN x INT", ErrDDLInTxn},
		{"ddl namespace", "CREATE NAMESPACE ns2", ErrDDLInTxn},
		{"nested begin", "BEGIN", ErrTxnOpen},
		{"savepoint", "ROLLBACK TO SAVEPOINT x", ErrNotSupported},
	}
	mustExec(t, s, "BEGIN")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.Exec(ctx, tc.sql, nil); !errors.Is(err, tc.want) {
				t.Fatalf("%s: err = %v, want %v", tc.sql, err, tc.want)
			}
			if !s.InTxn() {
				t.Fatal("a failed statement ended the transaction")
			}
		})
	}
	// A failed write removes its files and keeps the transaction usable.
	before := dataFiles(t, s, "a")
	if _, err := s.Exec(ctx, "INSERT INTO a VALUES (1), (NULL)", nil); !errors.Is(err, iceberg.ErrNotNullViolation) {
		t.Fatalf("NULL into NOT NULL: %v", err)
	}
	if got := dataFiles(t, s, "a"); got != before {
		t.Fatalf("failed statement left %d data files", got-before)
	}
	mustExec(t, s, "INSERT INTO a VALUES (5)")
	mustExec(t, s, "COMMIT")
	if got := count(t, s, "SELECT count(*) FROM a"); got != 1 {
		t.Fatalf("a = %d, want 1", got)
	}
	for _, sql := range []string{"COMMIT", "ROLLBACK"} {
		if _, err := s.Exec(ctx, sql, nil); !errors.Is(err, ErrNoTxn) {
			t.Fatalf("%s outside a transaction: %v", sql, err)
		}
	}
	if err := s.Begin(ctx, TxOptions{Isolation: "read-committed"}); !errors.Is(err, ErrIsolationLevel) {
		t.Fatalf("bad isolation: %v", err)
	}
}

func TestTxnReadOnly(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE a (id BIGINT)")
	mustExec(t, s, "START TRANSACTION READ ONLY")
	if _, err := s.Exec(ctx, "INSERT INTO a VALUES (1)", nil); !errors.Is(err, ErrTxnReadOnly) {
		t.Fatalf("insert in read-only txn: %v", err)
	}
	if got := count(t, s, "SELECT count(*) FROM a"); got != 0 {
		t.Fatalf("a = %d", got)
	}
	mustExec(t, s, "COMMIT")
}

func TestReadOptions(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE a (id BIGINT)")
	mustExec(t, s, "INSERT INTO a VALUES (1)")
	first := s.mustSnapshot(t, "a")
	time.Sleep(5 * time.Millisecond)
	mid := time.Now()
	time.Sleep(5 * time.Millisecond)
	mustExec(t, s, "INSERT INTO a VALUES (2)")
	tests := []struct {
		name string
		opts ReadOptions
		want int64
		err  error
	}{
		{"snapshot id", ReadOptions{SnapshotID: first}, 1, nil},
		{"as of", ReadOptions{AsOf: mid}, 1, nil},
		{"none", ReadOptions{}, 2, nil},
		{"unknown snapshot", ReadOptions{SnapshotID: 42}, 0, iceberg.ErrNoSuchSnapshot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qctx := WithReadOptions(ctx, tc.opts)
			rows, err := s.Query(qctx, "SELECT count(*) FROM a", nil)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			b, err := rows.Next(qctx)
			if err != nil || b == nil {
				t.Fatalf("no rows: %v", err)
			}
			defer b.Release()
			if got := b.Column(0).(*array.Int64).Value(0); got != tc.want {
				t.Fatalf("count = %d, want %d", got, tc.want)
			}
		})
	}
	if _, err := s.Exec(WithReadOptions(ctx, ReadOptions{SnapshotID: first}), "INSERT INTO a VALUES (3)", nil); !errors.Is(err, ErrReadOptionsWrite) {
		t.Fatalf("write with read options: %v", err)
	}
}

func (s *Session) mustSnapshot(t *testing.T, name string) int64 {
	t.Helper()
	tb, err := table.Load(context.Background(), s.engine.env, table.Identifier{Namespace: []string{"default"}, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tb.Metadata().CurrentSnapshot().SnapshotID
}

func TestAppendArrow(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE a (id BIGINT NOT NULL, name STRING)")
	mem := memory.NewGoAllocator()
	build := func(fields []arrow.Field, ids []int32, names []string) array.RecordReader {
		sc := arrow.NewSchema(fields, nil)
		b := array.NewRecordBuilder(mem, sc)
		defer b.Release()
		for i := range ids {
			for j, f := range fields {
				switch strings.ToLower(f.Name) {
				case "id":
					b.Field(j).(*array.Int32Builder).Append(ids[i])
				case "name", "n":
					b.Field(j).(*array.StringBuilder).Append(names[i])
				default:
					b.Field(j).AppendNull()
				}
			}
		}
		rec := b.NewRecordBatch()
		rr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
		if err != nil {
			t.Fatal(err)
		}
		return rr
	}
	// By name, in another order, with int32 widened to the table's long.
	byName := build([]arrow.Field{{Name: "name", Type: arrow.BinaryTypes.String}, {Name: "ID", Type: arrow.PrimitiveTypes.Int32}}, []int32{1, 2}, []string{"x", "y"})
	if n, err := s.AppendArrow(ctx, "a", byName); err != nil || n != 2 {
		t.Fatalf("append by name: n=%d err=%v", n, err)
	}
	byPos := build([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "n", Type: arrow.BinaryTypes.String}}, []int32{3}, []string{"z"})
	if n, err := s.AppendArrow(ctx, "default.a", byPos); err != nil || n != 1 {
		t.Fatalf("append by position: n=%d err=%v", n, err)
	}
	if got := count(t, s, "SELECT sum(id) FROM a WHERE name IS NOT NULL"); got != 6 {
		t.Fatalf("sum = %d, want 6", got)
	}
	tb, _ := table.Load(ctx, s.engine.env, table.Identifier{Namespace: []string{"default"}, Name: "a"})
	if got := len(tb.Metadata().Snapshots()); got != 2 {
		t.Fatalf("%d snapshots, want one per append", got)
	}
	bad := []struct {
		name  string
		table string
		rr    array.RecordReader
		want  error
	}{
		{"no such table", "nope", build([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil, nil), iceberg.ErrNoSuchTable},
		{"column count", "a", build([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, []int32{1}, []string{""}), ErrInvalidStatement},
		{"metadata table", "a.snapshots", build([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil, nil), ErrInvalidStatement},
		{"bad name", "", nil, ErrInvalidStatement},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.AppendArrow(ctx, tc.table, tc.rr); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// Inside a transaction the append is staged.
	mustExec(t, s, "BEGIN")
	if _, err := s.AppendArrow(ctx, "a", build([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "name", Type: arrow.BinaryTypes.String}}, []int32{10}, []string{"t"})); err != nil {
		t.Fatal(err)
	}
	if got := count(t, s.engine.NewSession(), "SELECT count(*) FROM a"); got != 3 {
		t.Fatalf("staged append visible outside: %d", got)
	}
	mustExec(t, s, "ROLLBACK")
	if got := count(t, s, "SELECT count(*) FROM a"); got != 3 {
		t.Fatalf("after rollback %d rows", got)
	}
}

// A table with a position delete file reads without the deleted rows.
func TestReadAppliesPositionDeletes(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE a (id BIGINT) TBLPROPERTIES ('format-version'='2')")
	mustExec(t, s, "INSERT INTO a VALUES (1), (2), (3), (4)")
	tb, err := table.Load(ctx, s.engine.env, table.Identifier{Namespace: []string{"default"}, Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	meta := tb.Metadata()
	tasks, _, err := scan.Plan(ctx, opener(ctx, tb.IO()), meta, meta.CurrentSnapshot().SnapshotID, nil, scan.Options{})
	if err != nil || len(tasks) != 1 {
		t.Fatalf("plan: %d tasks, %v", len(tasks), err)
	}
	pdw := datafile.NewPositionDeleteWriter(ctx, tb.IO(), meta, datafile.PositionDeleteOptions{})
	if err := pdw.Delete(ctx, tasks[0].File, []int64{0, 2}); err != nil {
		t.Fatal(err)
	}
	dels, err := pdw.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	u := tb.NewRowDelta()
	for _, d := range dels {
		u = u.AddDeleteFile(d)
	}
	if _, err := u.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := count(t, s, "SELECT sum(id) FROM a"); got != 6 {
		t.Fatalf("sum = %d, want 6 (rows 1 and 3 deleted)", got)
	}
	if got := count(t, s, "SELECT count(*) FROM a"); got != 2 {
		t.Fatalf("count = %d, want 2", got)
	}
}
