package table

import (
	"context"
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func (f *fixture) createNamed(t *testing.T, name string) *Table {
	t.Helper()
	saved := f.ident
	f.ident = Identifier{Namespace: []string{"db"}, Name: name}
	f.dir = f.dir + "/" + name
	tbl := f.createEvents(t, nil)
	f.ident = saved
	return tbl
}

// A transaction over two tables: its reads see its own writes, others see
// nothing until Commit, and Commit lands both tables or neither.
func TestTxnTwoTables(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	a, b := f.createNamed(t, "a"), f.createNamed(t, "b")

	x := NewTxn(f.env)
	ta, err := x.Table(ctx, a.Ident())
	if err != nil {
		t.Fatal(err)
	}
	fa := f.dayFile(t, ta, 0, 1)
	staged, err := x.Stage(ctx, ta.NewAppend().AddDataFile(fa).OwnFiles())
	if err != nil {
		t.Fatal(err)
	}
	if got := liveFiles(t, staged); len(got) != 1 {
		t.Fatalf("read-your-writes: %d files", len(got))
	}
	// A second statement on the same table sees the first.
	again, _ := x.Table(ctx, a.Ident())
	fa2 := f.dayFile(t, again, 1, 1)
	if _, err := x.Stage(ctx, again.NewAppend().AddDataFile(fa2)); err != nil {
		t.Fatal(err)
	}
	tb, _ := x.Table(ctx, b.Ident())
	if _, err := x.Stage(ctx, tb.NewAppend().AddDataFile(f.dayFile(t, tb, 0, 1))); err != nil {
		t.Fatal(err)
	}
	outside, _ := Load(ctx, f.env, a.Ident())
	if outside.Metadata().CurrentSnapshot() != nil {
		t.Fatal("staged write visible outside the transaction")
	}
	// Another writer commits to b meanwhile: Commit re-applies onto it.
	if _, err := b.NewAppend().AddDataFile(f.dayFile(t, b, 5, 1)).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := x.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	na, _ := Load(ctx, f.env, a.Ident())
	nb, _ := Load(ctx, f.env, b.Ident())
	if got := len(liveFiles(t, na)); got != 2 {
		t.Fatalf("table a: %d files, want 2", got)
	}
	if got := len(liveFiles(t, nb)); got != 2 {
		t.Fatalf("table b: %d files, want 2", got)
	}
	if got := len(na.Metadata().Snapshots()); got != 2 {
		t.Fatalf("table a: %d snapshots, want 2 (one per statement)", got)
	}
	if got := len(na.Metadata().MetadataLog()); got != 1 {
		t.Fatalf("table a: metadata log %d, want 1 (one metadata.json per transaction)", got)
	}
	if err := x.Commit(ctx); !errors.Is(err, ErrTxnDone) {
		t.Fatalf("second commit: %v", err)
	}
}

// When one table's validation fails, neither table changes and the
// transaction's files are removed.
func TestTxnAllOrNothing(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	a, b := f.createNamed(t, "a"), f.createNamed(t, "b")
	old := f.dayFile(t, b, 0, 10)
	b, err := b.NewAppend().AddDataFile(old).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	x := NewTxn(f.env)
	ta, _ := x.Table(ctx, a.Ident())
	fa := f.dayFile(t, ta, 0, 1)
	if _, err := x.Stage(ctx, ta.NewAppend().AddDataFile(fa).OwnFiles()); err != nil {
		t.Fatal(err)
	}
	tb, _ := x.Table(ctx, b.Ident())
	start := tb.Metadata().CurrentSnapshotID()
	if _, err := x.Stage(ctx, tb.NewOverwrite().RemoveFile(old).AddDataFile(f.dayFile(t, tb, 0, 9)).
		Validate(&start, iceberg.IsolationSerializable, nil)); err != nil {
		t.Fatal(err)
	}
	// A concurrent append to b conflicts with the serializable overwrite.
	if _, err := b.NewAppend().AddDataFile(f.dayFile(t, b, 0, 3)).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err = x.Commit(ctx)
	var verr *iceberg.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("got %v, want *ValidationError", err)
	}
	na, _ := Load(ctx, f.env, a.Ident())
	if na.Metadata().CurrentSnapshot() != nil {
		t.Fatal("table a changed although the transaction failed")
	}
	if _, err := f.env.IO.Open(ctx, fa.FilePath); err == nil {
		t.Fatal("the failed transaction's data file was not removed")
	}
}

func TestTxnRollback(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	a := f.createNamed(t, "a")
	metaDir := localDir(t, a.MetadataDir())
	before := countFiles(t, metaDir)
	x := NewTxn(f.env)
	ta, _ := x.Table(ctx, a.Ident())
	fa := f.dayFile(t, ta, 0, 1)
	if _, err := x.Stage(ctx, ta.NewAppend().AddDataFile(fa).OwnFiles()); err != nil {
		t.Fatal(err)
	}
	if countFiles(t, metaDir) == before {
		t.Fatal("staging wrote no manifest")
	}
	if err := x.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if got := countFiles(t, metaDir); got != before {
		t.Fatalf("%d metadata files after rollback, want %d", got, before)
	}
	if _, err := f.env.IO.Open(ctx, fa.FilePath); err == nil {
		t.Fatal("rolled-back data file still exists")
	}
}
