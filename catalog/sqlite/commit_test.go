package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/mattn/go-sqlite3"
)

func TestCommitTableCAS(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "m1")
	steps := []struct {
		name          string
		id            Identifier
		expected, new string
		want          error
		after         TableRecord
	}{
		{"first swap", id, "m1", "m2", nil, TableRecord{MetadataLocation: "m2", PreviousMetadataLocation: "m1"}},
		{"stale expected", id, "m1", "m3", iceberg.ErrCommitFailed, TableRecord{MetadataLocation: "m2", PreviousMetadataLocation: "m1"}},
		{"second swap", id, "m2", "m3", nil, TableRecord{MetadataLocation: "m3", PreviousMetadataLocation: "m2"}},
		{"missing table", ident(t, "db.nope"), "m3", "m4", iceberg.ErrCommitFailed, TableRecord{MetadataLocation: "m3", PreviousMetadataLocation: "m2"}},
		{"empty expected", id, "", "m4", ErrInvalidArgument, TableRecord{MetadataLocation: "m3", PreviousMetadataLocation: "m2"}},
		{"empty new", id, "m3", "", ErrInvalidArgument, TableRecord{MetadataLocation: "m3", PreviousMetadataLocation: "m2"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			err := c.CommitTable(ctx, s.id, s.expected, s.new)
			if !errors.Is(err, s.want) || (s.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, s.want)
			}
			if errors.Is(err, iceberg.ErrCommitStateUnknown) {
				t.Fatalf("definite failure reported as unknown: %v", err)
			}
			var ce *CatalogError
			if err != nil && (!errors.As(err, &ce) || ce.Table != s.id.String()) {
				t.Fatalf("error does not name the table: %#v", err)
			}
			rec, err := c.LoadTable(ctx, id)
			if err != nil || rec != s.after {
				t.Fatalf("after: %+v, %v; want %+v", rec, err, s.after)
			}
		})
	}
}

func TestCommitTableIgnoresViews(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	if _, err := c.cur.Load().write.Exec("INSERT INTO iceberg_tables VALUES ('default', 'db', 'v', 'vm1', NULL, 'VIEW')"); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitTable(ctx, ident(t, "db.v"), "vm1", "vm2"); !errors.Is(err, iceberg.ErrCommitFailed) {
		t.Fatalf("swap of a view row: err = %v, want ErrCommitFailed", err)
	}
}

func TestCommitTablesAtomic(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	a := mustCreateTable(t, c, "db.a", "a1")
	b := mustCreateTable(t, c, "db.b", "b1")
	steps := []struct {
		name      string
		commits   []TableCommit
		want      error
		wantTable string
		a, b      string
	}{
		{"both", []TableCommit{{Ident: a, Expected: "a1", New: "a2"}, {Ident: b, Expected: "b1", New: "b2"}}, nil, "", "a2", "b2"},
		{"second stale", []TableCommit{{Ident: a, Expected: "a2", New: "a3"}, {Ident: b, Expected: "b1", New: "b3"}}, iceberg.ErrCommitFailed, "db.b", "a2", "b2"},
		{"first stale", []TableCommit{{Ident: a, Expected: "a1", New: "a3"}, {Ident: b, Expected: "b2", New: "b3"}}, iceberg.ErrCommitFailed, "db.a", "a2", "b2"},
		{"missing table", []TableCommit{{Ident: a, Expected: "a2", New: "a3"}, {Ident: ident(t, "db.c"), Expected: "c1", New: "c2"}}, iceberg.ErrCommitFailed, "db.c", "a2", "b2"},
		{"duplicate", []TableCommit{{Ident: a, Expected: "a2", New: "a3"}, {Ident: a, Expected: "a3", New: "a4"}}, ErrInvalidArgument, "db.a", "a2", "b2"},
		{"empty", nil, nil, "", "a2", "b2"},
		{"one", []TableCommit{{Ident: b, Expected: "b2", New: "b3"}}, nil, "", "a2", "b3"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			err := c.CommitTables(ctx, s.commits)
			if !errors.Is(err, s.want) || (s.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, s.want)
			}
			var ce *CatalogError
			if s.wantTable != "" && (!errors.As(err, &ce) || ce.Table != s.wantTable) {
				t.Fatalf("error %v does not name %s", err, s.wantTable)
			}
			recs, err := c.LoadTables(ctx, []Identifier{a, b})
			if err != nil {
				t.Fatal(err)
			}
			if recs[0].MetadataLocation != s.a || recs[1].MetadataLocation != s.b {
				t.Fatalf("after: a=%s b=%s, want a=%s b=%s", recs[0].MetadataLocation, recs[1].MetadataLocation, s.a, s.b)
			}
		})
	}
}

func TestLoadTables(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	a := mustCreateTable(t, c, "db.a", "a1")
	b := mustCreateTable(t, c, "db.b", "b1")
	recs, err := c.LoadTables(ctx, []Identifier{b, a})
	if err != nil || recs[0].MetadataLocation != "b1" || recs[1].MetadataLocation != "a1" {
		t.Fatalf("LoadTables = %+v, %v", recs, err)
	}
	_, err = c.LoadTables(ctx, []Identifier{a, ident(t, "db.c")})
	var ce *CatalogError
	if !errors.Is(err, iceberg.ErrNoSuchTable) || !errors.As(err, &ce) {
		t.Fatalf("err = %v, want ErrNoSuchTable", err)
	}
}

// Readers racing a multi-table committer must never see half a commit.
func TestLoadTablesSeesOneSnapshot(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	a := mustCreateTable(t, c, "db.a", "v0")
	b := mustCreateTable(t, c, "db.b", "v0")
	const versions = 100
	done := make(chan error, 1)
	go func() {
		for i := 1; i <= versions; i++ {
			prev, next := fmt.Sprintf("v%d", i-1), fmt.Sprintf("v%d", i)
			if err := c.CommitTables(ctx, []TableCommit{{Ident: a, Expected: prev, New: next}, {Ident: b, Expected: prev, New: next}}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
		recs, err := c.LoadTables(ctx, []Identifier{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if recs[0] != recs[1] {
			t.Fatalf("torn read: a=%+v b=%+v", recs[0], recs[1])
		}
	}
}

func TestHooks(t *testing.T) {
	ctx := context.Background()
	crash := errors.New("simulated crash")
	var before, after int
	c, _ := openTest(t, Options{Hooks: Hooks{
		BeforeSwap: func(ctx context.Context, id Identifier) error {
			before++
			if id.Name == "crash" {
				return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, crash)
			}
			return nil
		},
		AfterSwap: func(ctx context.Context, id Identifier) error {
			after++
			if id.Name == "lost" {
				return fmt.Errorf("%w: reply lost", iceberg.ErrCommitStateUnknown)
			}
			return nil
		},
	}})
	mustCreateNamespace(t, c, "db")
	crashID := mustCreateTable(t, c, "db.crash", "m1")
	lostID := mustCreateTable(t, c, "db.lost", "m1")
	okID := mustCreateTable(t, c, "db.ok", "m1")
	tests := []struct {
		name    string
		commit  func() error
		want    error
		id      Identifier
		wantLoc string
	}{
		{"before swap fails", func() error { return c.CommitTable(ctx, crashID, "m1", "m2") }, crash, crashID, "m1"},
		{"after swap fails", func() error { return c.CommitTable(ctx, lostID, "m1", "m2") }, iceberg.ErrCommitStateUnknown, lostID, "m2"},
		{"multi before fails", func() error {
			return c.CommitTables(ctx, []TableCommit{{Ident: okID, Expected: "m1", New: "m2"}, {Ident: crashID, Expected: "m1", New: "m2"}})
		}, crash, okID, "m1"},
		{"multi after fails", func() error {
			return c.CommitTables(ctx, []TableCommit{{Ident: okID, Expected: "m1", New: "m2"}, {Ident: lostID, Expected: "m2", New: "m3"}})
		}, iceberg.ErrCommitStateUnknown, okID, "m2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.commit(); !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			rec, err := c.LoadTable(ctx, tt.id)
			if err != nil || rec.MetadataLocation != tt.wantLoc {
				t.Fatalf("after: %+v, %v; want %s", rec, err, tt.wantLoc)
			}
		})
	}
	if before == 0 || after == 0 {
		t.Fatalf("hooks not called: before=%d after=%d", before, after)
	}
}

func TestCommitWithCancelledContext(t *testing.T) {
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "m1")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, commit := range map[string]func() error{
		"single": func() error { return c.CommitTable(ctx, id, "m1", "m2") },
		"multi":  func() error { return c.CommitTables(ctx, []TableCommit{{Ident: id, Expected: "m1", New: "m2"}}) },
	} {
		t.Run(name, func(t *testing.T) {
			err := commit()
			if !errors.Is(err, context.Canceled) || errors.Is(err, iceberg.ErrCommitStateUnknown) {
				t.Fatalf("err = %v, want a definite context.Canceled", err)
			}
			rec, _ := c.LoadTable(context.Background(), id)
			if rec.MetadataLocation != "m1" {
				t.Fatalf("cancelled commit applied: %+v", rec)
			}
		})
	}
}

func TestAfterSendClassification(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"busy", sqlite3.Error{Code: sqlite3.ErrBusy}, iceberg.ErrCommitFailed},
		{"locked", sqlite3.Error{Code: sqlite3.ErrLocked}, iceberg.ErrCommitFailed},
		{"io error", sqlite3.Error{Code: sqlite3.ErrIoErr, ExtendedCode: sqlite3.ErrIoErrFsync}, iceberg.ErrCommitStateUnknown},
		{"full", sqlite3.Error{Code: sqlite3.ErrFull}, iceberg.ErrCommitStateUnknown},
		{"corrupt", sqlite3.Error{Code: sqlite3.ErrCorrupt}, iceberg.ErrCommitStateUnknown},
		{"interrupted", sqlite3.Error{Code: sqlite3.ErrInterrupt}, iceberg.ErrCommitStateUnknown},
		{"cancelled", context.Canceled, iceberg.ErrCommitStateUnknown},
		{"unknown driver error", errors.New("connection reset"), iceberg.ErrCommitStateUnknown},
		{"sql error", sqlite3.Error{Code: sqlite3.ErrError}, nil},
		{"read-only", sqlite3.Error{Code: sqlite3.ErrReadonly}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := afterSend(tt.err)
			if !errors.Is(got, tt.err) {
				t.Fatalf("cause lost: %v", got)
			}
			for _, s := range []error{iceberg.ErrCommitFailed, iceberg.ErrCommitStateUnknown} {
				if errors.Is(got, s) != (s == tt.want) {
					t.Fatalf("afterSend(%v) = %v; want match for %v only", tt.err, got, tt.want)
				}
			}
		})
	}
}

// A lock held by another connection past the busy timeout is a definite,
// retryable failure, never an unknown outcome.
func TestCommitWhileLockedIsRetryable(t *testing.T) {
	ctx := context.Background()
	c, path := openTest(t, Options{BusyTimeout: 50 * time.Millisecond})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "m1")

	holder, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	conn, err := holder.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	for name, commit := range map[string]func() error{
		"single": func() error { return c.CommitTable(ctx, id, "m1", "m2") },
		"multi":  func() error { return c.CommitTables(ctx, []TableCommit{{Ident: id, Expected: "m1", New: "m2"}}) },
	} {
		t.Run(name, func(t *testing.T) {
			err := commit()
			if !errors.Is(err, iceberg.ErrCommitFailed) || errors.Is(err, iceberg.ErrCommitStateUnknown) {
				t.Fatalf("err = %v, want ErrCommitFailed only", err)
			}
		})
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitTable(ctx, id, "m1", "m2"); err != nil {
		t.Fatalf("commit after the lock is released: %v", err)
	}
}
