// Package catalogtest is the behaviour every catalog.Catalog shares, as a
// test suite that each implementation runs against a real instance
// (catalog/sqlite on a file, catalog/postgres on a throwaway cluster,
// catalog/rest against icesql's REST server over either).
//
// Catalogs that write metadata themselves (table.MetadataCommitter,
// catalog.ViewMetadataCommitter) get real metadata files instead of bare
// pointer strings (versions.go), and the cases say where their contract
// differs: they install files of their own (so versions compare by name),
// keep no previous pointer, detect a stale table commit by its
// requirements, and a stale view commit not at all (the REST spec's view
// commits assert the view's UUID only: the last writer wins).
package catalogtest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// Opener opens a fresh, empty catalog with the given hooks; the suite
// closes it.
type Opener func(t *testing.T, hooks catalog.Hooks) catalog.Catalog

// Run runs the suite, one subtest per behaviour.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, open Opener)
	}{
		{"Namespaces", testNamespaces},
		{"NamespaceLikeIsExact", testNamespaceLikeIsExact},
		{"Tables", testTables},
		{"Views", testViews},
		{"CommitTableCAS", testCommitTableCAS},
		{"CommitTablesAtomic", testCommitTablesAtomic},
		{"Hooks", testHooks},
		{"ConcurrentCASOneWinner", testConcurrentCASOneWinner},
		{"ConcurrentCommitsNoLostUpdates", testConcurrentNoLostUpdates},
		{"CommitLock", testCommitLock},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open) })
	}
}

func fresh(t *testing.T, open Opener, hooks catalog.Hooks) catalog.Catalog {
	c := open(t, hooks)
	t.Cleanup(func() { c.Close() })
	return c
}

func id(ns, name string) catalog.Identifier {
	return catalog.Identifier{Namespace: []string{ns}, Name: name}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want an error matching %v", err, want)
	}
}

func testNamespaces(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	must(t, c.CreateNamespace(ctx, []string{"db"}, map[string]string{"owner": "ann"}))
	wantErr(t, c.CreateNamespace(ctx, []string{"db"}, nil), iceberg.ErrNamespaceExists)
	must(t, c.CreateNamespace(ctx, []string{"db", "sub"}, nil))
	must(t, c.CreateNamespace(ctx, []string{"other"}, nil))
	got, err := c.ListNamespaces(ctx, nil)
	must(t, err)
	if want := [][]string{{"db"}, {"other"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("top-level namespaces %v, want %v", got, want)
	}
	got, err = c.ListNamespaces(ctx, []string{"db"})
	must(t, err)
	if want := [][]string{{"db", "sub"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("children of db %v, want %v", got, want)
	}
	props, err := c.LoadNamespaceProperties(ctx, []string{"db"})
	must(t, err)
	if want := map[string]string{"owner": "ann", "exists": "true"}; !reflect.DeepEqual(props, want) {
		t.Fatalf("properties %v, want %v", props, want)
	}
	must(t, c.UpdateNamespaceProperties(ctx, []string{"db"}, []string{"owner"}, map[string]string{"team": "x"}))
	props, err = c.LoadNamespaceProperties(ctx, []string{"db"})
	must(t, err)
	if want := map[string]string{"team": "x", "exists": "true"}; !reflect.DeepEqual(props, want) {
		t.Fatalf("updated properties %v, want %v", props, want)
	}
	wantErr(t, c.UpdateNamespaceProperties(ctx, []string{"db"}, []string{"a"}, map[string]string{"a": "1"}), catalog.ErrInvalidArgument)
	wantErr(t, c.DropNamespace(ctx, []string{"db"}), iceberg.ErrNamespaceNotEmpty)
	must(t, c.DropNamespace(ctx, []string{"db", "sub"}))
	must(t, c.DropNamespace(ctx, []string{"db"}))
	wantErr(t, c.DropNamespace(ctx, []string{"db"}), iceberg.ErrNoSuchNamespace)
	_, err = c.LoadNamespaceProperties(ctx, []string{"db"})
	wantErr(t, err, iceberg.ErrNoSuchNamespace)
	wantErr(t, c.CreateNamespace(ctx, []string{"a.b"}, nil), catalog.ErrInvalidIdentifier)
	wantErr(t, c.CreateNamespace(ctx, nil, nil), catalog.ErrInvalidIdentifier)
}

// testNamespaceLikeIsExact: a namespace's children are found by prefix;
// neither case nor LIKE's wildcards may widen the match.
func testNamespaceLikeIsExact(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	must(t, c.CreateNamespace(ctx, []string{"axb", "child"}, nil))
	must(t, c.CreateNamespace(ctx, []string{"A_B", "child"}, nil))
	for _, ns := range [][]string{{"a_b"}, {"a%"}, {"A!B"}} {
		ok, err := c.NamespaceExists(ctx, ns)
		must(t, err)
		if ok {
			t.Fatalf("namespace %v exists through a pattern match", ns)
		}
	}
	ok, err := c.NamespaceExists(ctx, []string{"A_B"})
	must(t, err)
	if !ok {
		t.Fatal("A_B does not exist through its child")
	}
	got, err := c.ListNamespaces(ctx, []string{"A_B"})
	must(t, err)
	if want := [][]string{{"A_B", "child"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("children of A_B %v, want %v", got, want)
	}
}

func testTables(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	v := newVersions(t, c)
	m1, r1 := v.table(t, "m1"), v.table(t, "r1")
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	must(t, c.CreateNamespace(ctx, []string{"db2"}, nil))
	must(t, c.CreateTable(ctx, id("db", "t"), m1))
	must(t, c.RegisterTable(ctx, id("db", "r"), r1))
	wantErr(t, c.CreateTable(ctx, id("db", "t"), m1), iceberg.ErrTableAlreadyExists)
	wantErr(t, c.CreateTable(ctx, id("nope", "t"), m1), iceberg.ErrNoSuchNamespace)
	wantErr(t, c.CreateTable(ctx, id("db", "e"), ""), catalog.ErrInvalidArgument)
	wantErr(t, c.CreateTable(ctx, id("db", ""), m1), catalog.ErrInvalidIdentifier)
	rec, err := c.LoadTable(ctx, id("db", "t"))
	must(t, err)
	if rec != (catalog.Record{MetadataLocation: m1}) {
		t.Fatalf("record %+v", rec)
	}
	_, err = c.LoadTable(ctx, id("db", "missing"))
	wantErr(t, err, iceberg.ErrNoSuchTable)
	list, err := c.ListTables(ctx, []string{"db"})
	must(t, err)
	if want := []catalog.Identifier{id("db", "r"), id("db", "t")}; !reflect.DeepEqual(list, want) {
		t.Fatalf("tables %v, want %v", list, want)
	}
	ok, err := c.TableExists(ctx, id("db", "t"))
	must(t, err)
	if !ok {
		t.Fatal("table does not exist")
	}
	must(t, c.RenameTable(ctx, id("db", "t"), id("db2", "t2")))
	wantErr(t, c.RenameTable(ctx, id("db", "t"), id("db2", "t3")), iceberg.ErrNoSuchTable)
	wantErr(t, c.RenameTable(ctx, id("db", "r"), id("db2", "t2")), iceberg.ErrTableAlreadyExists)
	wantErr(t, c.RenameTable(ctx, id("db", "r"), id("nope", "x")), iceberg.ErrNoSuchNamespace)
	all, err := c.AllTables(ctx)
	must(t, err)
	if want := map[string]catalog.Record{"db.r": {MetadataLocation: r1}, "db2.t2": {MetadataLocation: m1}}; !reflect.DeepEqual(all, want) {
		t.Fatalf("all tables %v, want %v", all, want)
	}
	recs, err := c.LoadTables(ctx, []catalog.Identifier{id("db2", "t2"), id("db", "r")})
	must(t, err)
	if recs[0].MetadataLocation != m1 || recs[1].MetadataLocation != r1 {
		t.Fatalf("load tables %v", recs)
	}
	dropped, err := c.DropTable(ctx, id("db2", "t2"))
	must(t, err)
	if dropped.MetadataLocation != m1 {
		t.Fatalf("dropped %+v", dropped)
	}
	_, err = c.DropTable(ctx, id("db2", "t2"))
	wantErr(t, err, iceberg.ErrNoSuchTable)
}

func testViews(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	if !c.SupportsViews() {
		t.Skip("catalog cannot hold views")
	}
	v := newVersions(t, c)
	m1, v1 := v.table(t, "m1"), v.view(t, "v1")
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	must(t, c.CreateTable(ctx, id("db", "t"), m1))
	must(t, c.CreateView(ctx, id("db", "v"), v1))
	// The REST error model has one AlreadyExistsException for both.
	if err := c.CreateView(ctx, id("db", "t"), v1); !errors.Is(err, iceberg.ErrTableAlreadyExists) && !(v.views && errors.Is(err, iceberg.ErrViewAlreadyExists)) {
		t.Fatalf("view over a table: %v", err)
	}
	if err := c.CreateTable(ctx, id("db", "v"), m1); !errors.Is(err, iceberg.ErrViewAlreadyExists) && !errors.Is(err, iceberg.ErrTableAlreadyExists) {
		t.Fatalf("table over a view: %v", err)
	}
	_, err := c.LoadTable(ctx, id("db", "v"))
	wantErr(t, err, iceberg.ErrNoSuchTable)
	_, err = c.LoadView(ctx, id("db", "t"))
	wantErr(t, err, iceberg.ErrNoSuchView)
	views, err := c.ListViews(ctx, []string{"db"})
	must(t, err)
	if want := []catalog.Identifier{id("db", "v")}; !reflect.DeepEqual(views, want) {
		t.Fatalf("views %v", views)
	}
	v2 := v.viewChild(t, v1, "v2")
	must(t, c.CommitView(ctx, id("db", "v"), v1, v2))
	if v.views {
		// A view commit asserts the view's UUID only: one based on
		// another view's versions fails, a stale one of this view wins.
		o1 := v.view(t, "o1")
		wantErr(t, c.CommitView(ctx, id("db", "v"), o1, v.viewChild(t, o1, "o2")), iceberg.ErrCommitFailed)
	} else {
		wantErr(t, c.CommitView(ctx, id("db", "v"), v1, v.viewChild(t, v1, "v3")), iceberg.ErrCommitFailed)
	}
	// A view's pointer is not a table's.
	wantErr(t, c.CommitTable(ctx, id("db", "v"), m1, v.child(t, m1, "m2")), iceberg.ErrCommitFailed)
	rec, err := c.LoadView(ctx, id("db", "v"))
	must(t, err)
	if !v.isView(t, rec.MetadataLocation, "v2") || (!v.views && rec.PreviousMetadataLocation != "v1") {
		t.Fatalf("view record %+v", rec)
	}
	must(t, c.RenameView(ctx, id("db", "v"), id("db", "w")))
	_, err = c.DropView(ctx, id("db", "w"))
	must(t, err)
	ok, err := c.ViewExists(ctx, id("db", "w"))
	must(t, err)
	if ok {
		t.Fatal("dropped view exists")
	}
}

func testCommitTableCAS(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	v := newVersions(t, c)
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	must(t, c.CreateTable(ctx, id("db", "t"), v.table(t, "m1")))
	steps := []struct {
		name           string
		expected, next string // version names; next follows expected
		err            error
		after, prev    string
	}{
		{"first swap", "m1", "m2", nil, "m2", "m1"},
		{"stale expected", "m1", "m3", iceberg.ErrCommitFailed, "m2", "m1"},
		{"second swap", "m2", "m3", nil, "m3", "m2"},
		{"empty expected", "", "m4", catalog.ErrInvalidArgument, "m3", "m2"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			var expected, next string
			if s.expected != "" {
				expected = v.loc(t, s.expected)
				next = v.child(t, expected, s.next)
			} else {
				next = v.table(t, s.next)
			}
			err := c.CommitTable(ctx, id("db", "t"), expected, next)
			if s.err == nil {
				must(t, err)
			} else {
				wantErr(t, err, s.err)
			}
			rec, err := c.LoadTable(ctx, id("db", "t"))
			must(t, err)
			// A catalog that writes its own files keeps no previous pointer.
			if !v.is(t, rec.MetadataLocation, s.after) || (!v.files && rec.PreviousMetadataLocation != s.prev) {
				t.Fatalf("after: %+v, want %s after %s", rec, s.after, s.prev)
			}
		})
	}
	m1 := v.loc(t, "m1")
	wantErr(t, c.CommitTable(ctx, id("db", "missing"), m1, v.child(t, m1, "m2")), iceberg.ErrCommitFailed)
}

func testCommitTablesAtomic(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	v := newVersions(t, c)
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	must(t, c.CreateTable(ctx, id("db", "a"), v.table(t, "a1")))
	must(t, c.CreateTable(ctx, id("db", "b"), v.table(t, "b1")))
	tc := func(name, exp, next string) catalog.TableCommit {
		base := v.loc(t, exp)
		return catalog.TableCommit{Ident: id("db", name), Expected: base, New: v.child(t, base, next)}
	}
	must(t, c.CommitTables(ctx, []catalog.TableCommit{tc("a", "a1", "a2"), tc("b", "b1", "b2")}))
	wantErr(t, c.CommitTables(ctx, []catalog.TableCommit{tc("a", "a2", "a3"), tc("b", "b1", "b3")}), iceberg.ErrCommitFailed)
	wantErr(t, c.CommitTables(ctx, []catalog.TableCommit{tc("a", "a2", "a3"), tc("a", "a3", "a4")}), catalog.ErrInvalidArgument)
	recs, err := c.LoadTables(ctx, []catalog.Identifier{id("db", "a"), id("db", "b")})
	must(t, err)
	if !v.is(t, recs[0].MetadataLocation, "a2") || !v.is(t, recs[1].MetadataLocation, "b2") {
		t.Fatalf("a failed multi-table commit changed something: %+v", recs)
	}
}

func testHooks(t *testing.T, open Opener) {
	ctx := context.Background()
	lost := errors.New("reply lost")
	c := fresh(t, open, catalog.Hooks{
		BeforeSwap: func(_ context.Context, ident catalog.Identifier) error {
			if ident.Name == "crash" {
				return fmt.Errorf("%w: crashed before sending", iceberg.ErrCommitStateUnknown)
			}
			return nil
		},
		AfterSwap: func(_ context.Context, ident catalog.Identifier) error {
			if ident.Name == "lost" {
				return lost
			}
			return nil
		},
	})
	v := newVersions(t, c)
	m1 := v.table(t, "m1")
	m2 := v.child(t, m1, "m2")
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	for _, n := range []string{"ok", "crash", "lost"} {
		must(t, c.CreateTable(ctx, id("db", n), m1))
	}
	wantErr(t, c.CommitTables(ctx, []catalog.TableCommit{
		{Ident: id("db", "ok"), Expected: m1, New: m2}, {Ident: id("db", "crash"), Expected: m1, New: m2}}), iceberg.ErrCommitStateUnknown)
	rec, err := c.LoadTable(ctx, id("db", "ok"))
	must(t, err)
	if !v.is(t, rec.MetadataLocation, "m1") {
		t.Fatalf("aborted multi-table commit moved a pointer: %+v", rec)
	}
	err = c.CommitTable(ctx, id("db", "lost"), m1, m2)
	if v.files {
		// The hooks run in the server: the lost reply reaches the client
		// as a 5xx, which it resolves by reading the table back (the
		// commit's snapshot is there) or reports as unknown.
		if err != nil && !errors.Is(err, iceberg.ErrCommitStateUnknown) {
			t.Fatalf("commit whose reply was lost: %v", err)
		}
	} else {
		wantErr(t, err, lost)
	}
	rec, err = c.LoadTable(ctx, id("db", "lost"))
	must(t, err)
	if !v.is(t, rec.MetadataLocation, "m2") {
		t.Fatalf("a swap whose reply was lost did not take effect: %+v", rec)
	}
}

func testConcurrentCASOneWinner(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	v := newVersions(t, c)
	m0 := v.table(t, "m0")
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	must(t, c.CreateTable(ctx, id("db", "t"), m0))
	const writers = 16
	errs := make([]error, writers)
	next := make([]string, writers)
	for i := range writers {
		next[i] = v.child(t, m0, fmt.Sprintf("w%d", i))
	}
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.CommitTable(ctx, id("db", "t"), m0, next[i])
		}()
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil:
			if winner >= 0 {
				t.Fatalf("writers %d and %d both won", winner, i)
			}
			winner = i
		case !errors.Is(err, iceberg.ErrCommitFailed):
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	rec, err := c.LoadTable(ctx, id("db", "t"))
	must(t, err)
	if winner < 0 || !v.is(t, rec.MetadataLocation, fmt.Sprintf("w%d", winner)) {
		t.Fatalf("winner %d, table at %s", winner, rec.MetadataLocation)
	}
}

// testConcurrentNoLostUpdates: writers refresh and retry until each of
// their swaps lands; the winning swaps form one unbroken chain.
func testConcurrentNoLostUpdates(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	v := newVersions(t, c)
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	must(t, c.CreateTable(ctx, id("db", "t"), v.table(t, "start")))
	const writers, each = 8, 10
	var mu sync.Mutex
	next := map[string]string{}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				name := fmt.Sprintf("w%d-%d", w, i)
				for {
					rec, err := c.LoadTable(ctx, id("db", "t"))
					if err != nil {
						errs <- err
						return
					}
					// Versions chain by name: a catalog that writes its
					// own files installs a location of its own.
					base := v.name(t, rec.MetadataLocation)
					err = c.CommitTable(ctx, id("db", "t"), rec.MetadataLocation, v.child(t, rec.MetadataLocation, name))
					if err == nil {
						mu.Lock()
						if prev, dup := next[base]; dup {
							errs <- fmt.Errorf("two commits won from %s: %s and %s", base, prev, name)
						}
						next[base] = name
						mu.Unlock()
						break
					}
					if !errors.Is(err, iceberg.ErrCommitFailed) {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rec, err := c.LoadTable(ctx, id("db", "t"))
	must(t, err)
	loc, steps := "start", 0
	for n, ok := next[loc]; ok; n, ok = next[loc] {
		loc = n
		steps++
	}
	if steps != writers*each || !v.is(t, rec.MetadataLocation, loc) {
		t.Fatalf("chain has %d of %d swaps and ends at %s; table at %s", steps, writers*each, loc, rec.MetadataLocation)
	}
}

// testCommitLock: a committer holding the lock never loses its swap, and
// a swap tried meanwhile by another writer waits or fails, never wins.
func testCommitLock(t *testing.T, open Opener) {
	ctx := context.Background()
	c := fresh(t, open, catalog.Hooks{})
	locker, ok := c.(catalog.CommitLocker)
	if !ok {
		t.Skip("catalog cannot lock for commit")
	}
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	must(t, c.CreateTable(ctx, id("db", "t"), "m0"))
	_, err := locker.LockForCommit(ctx, []catalog.Identifier{id("db", "missing")})
	wantErr(t, err, iceberg.ErrNoSuchTable)
	const writers, each = 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				lk, err := locker.LockForCommit(ctx, []catalog.Identifier{id("db", "t")})
				if err != nil {
					errs <- err
					return
				}
				base := lk.Locations()[0]
				if err := lk.Commit(ctx, []catalog.TableCommit{{Ident: id("db", "t"), Expected: base, New: fmt.Sprintf("w%d-%d", w, i)}}); err != nil {
					errs <- fmt.Errorf("commit under the lock: %w", err)
					return
				}
				lk.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Every locked commit landed: the chain of previous locations is as
	// long as the number of commits.
	rec, err := c.LoadTable(ctx, id("db", "t"))
	must(t, err)
	if rec.MetadataLocation == "m0" {
		t.Fatal("no locked commit landed")
	}
	lk, err := locker.LockForCommit(ctx, []catalog.Identifier{id("db", "t")})
	must(t, err)
	lk.Release()
	lk.Release()
}
