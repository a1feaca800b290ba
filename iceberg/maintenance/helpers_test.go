package maintenance

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

// memCatalog is an in-memory table.Catalog with a real compare-and-swap
// (the same shape as the table package's test catalog).
type memCatalog struct {
	mu       sync.Mutex
	pointers map[string]string
	// beforeSwap, when set, runs (unlocked) before each swap.
	beforeSwap func()
}

func (c *memCatalog) CurrentMetadataLocation(_ context.Context, id table.Identifier) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	loc, ok := c.pointers[id.String()]
	if !ok {
		return "", fmt.Errorf("%w: %s", iceberg.ErrNoSuchTable, id)
	}
	return loc, nil
}

func (c *memCatalog) CurrentMetadataLocations(ctx context.Context, ids []table.Identifier) ([]string, error) {
	var out []string
	for _, id := range ids {
		loc, err := c.CurrentMetadataLocation(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, loc)
	}
	return out, nil
}

func (c *memCatalog) Swap(ctx context.Context, id table.Identifier, expected, next string) error {
	return c.SwapAll(ctx, []table.Swap{{Ident: id, Expected: expected, Next: next}})
}

func (c *memCatalog) SwapAll(_ context.Context, swaps []table.Swap) error {
	if hook := c.beforeSwap; hook != nil {
		c.beforeSwap = nil // one shot, so the hook may commit itself
		hook()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range swaps {
		if c.pointers[s.Ident.String()] != s.Expected {
			return fmt.Errorf("%w: %s", iceberg.ErrCommitFailed, s.Ident)
		}
	}
	for _, s := range swaps {
		c.pointers[s.Ident.String()] = s.Next
	}
	return nil
}

func (c *memCatalog) Create(_ context.Context, id table.Identifier, loc string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pointers[id.String()]; ok {
		return fmt.Errorf("%w: %s", iceberg.ErrTableAlreadyExists, id)
	}
	c.pointers[id.String()] = loc
	return nil
}

// testClock is the table clock: it advances one minute per reading, so
// every snapshot gets a distinct timestamp.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Minute)
	return c.t
}

var testSchema = iceberg.MustSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
	iceberg.NestedField{ID: 2, Name: "category", Type: iceberg.StringType{}},
)

type fixture struct {
	env   *table.Env
	cat   *memCatalog
	clock *testClock
	dir   string
	ident table.Identifier
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	cat := &memCatalog{pointers: map[string]string{}}
	// The clock starts at the real time: metadata builders stamp
	// last-updated-ms with it, and snapshots never predate that.
	clock := &testClock{t: time.Now()}
	return &fixture{
		env: &table.Env{Catalog: cat, IO: &fileio.Local{NoSync: true}, Now: clock.Now},
		cat: cat, clock: clock, dir: t.TempDir(),
		ident: table.Identifier{Namespace: []string{"db"}, Name: "t"},
	}
}

// create makes the table, partitioned by identity(category) when
// partitioned is set.
func (f *fixture) create(t testing.TB, partitioned bool, props map[string]string) *table.Table {
	t.Helper()
	var spec *iceberg.PartitionSpec
	if partitioned {
		var err error
		if spec, err = iceberg.NewPartitionSpecBuilder(testSchema).Identity("category").Build(); err != nil {
			t.Fatal(err)
		}
	}
	loc, err := fileio.LocalURI(filepath.Join(f.dir, "t"))
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := table.Create(context.Background(), f.env, f.ident, testSchema, loc, table.CreateOptions{Spec: spec, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func (f *fixture) load(t testing.TB) *table.Table {
	t.Helper()
	tbl, err := table.Load(context.Background(), f.env, f.ident)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// loadElsewhere loads the table through an Env of its own, as another
// process would: a swap hook that commits with it does not wait for the
// commit lock of the Env whose commit is running the hook.
func (f *fixture) loadElsewhere(t testing.TB) *table.Table {
	t.Helper()
	env := &table.Env{Catalog: f.env.Catalog, IO: f.env.IO, Now: f.env.Now}
	tbl, err := table.Load(context.Background(), env, f.ident)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// rows builds a batch of ids, each with category cats[id % len(cats)].
func rows(t testing.TB, ids []int64, cats ...string) arrow.RecordBatch {
	t.Helper()
	as, err := arrowschema.ToArrow(testSchema)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for _, id := range ids {
		b.Field(0).(*array.Int64Builder).Append(id)
		b.Field(1).(*array.StringBuilder).Append(cats[int(id)%len(cats)])
	}
	return b.NewRecordBatch()
}

// writeFiles writes ids as data files (uncommitted).
func writeFiles(t testing.TB, tbl *table.Table, ids []int64, cats ...string) []iceberg.DataFile {
	t.Helper()
	ctx := context.Background()
	w := datafile.NewWriter(ctx, tbl.IO(), tbl.Metadata(), datafile.WriterOptions{})
	rec := rows(t, ids, cats...)
	defer rec.Release()
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	files, err := w.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// appendRows commits ids as one append and returns the new table.
func appendRows(t testing.TB, tbl *table.Table, ids []int64, cats ...string) *table.Table {
	t.Helper()
	if len(cats) == 0 {
		cats = []string{"a"}
	}
	u := tbl.NewAppend()
	for _, f := range writeFiles(t, tbl, ids, cats...) {
		u.AddDataFile(f)
	}
	out, err := u.Commit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func seq(from, to int64) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// readIDs reads the ids of a snapshot (main's head when id is 0) with
// deletes applied, sorted.
func readIDs(t testing.TB, tbl *table.Table, snapshotID int64) []int64 {
	t.Helper()
	if snapshotID == 0 && tbl.Metadata().CurrentSnapshot() == nil {
		return nil
	}
	var out []int64
	for _, task := range planSnapshot(t, tbl, snapshotID) {
		out = append(out, readTask(t, tbl, task)...)
	}
	slices.Sort(out)
	return out
}

// planAll plans main's head.
func planAll(t testing.TB, tbl *table.Table) []scan.FileScanTask { return planSnapshot(t, tbl, 0) }

func planSnapshot(t testing.TB, tbl *table.Table, snapshotID int64) []scan.FileScanTask {
	t.Helper()
	if snapshotID == 0 {
		snapshotID = tbl.Metadata().CurrentSnapshotID()
	}
	tasks, _, err := scan.Plan(context.Background(), opener(tbl), tbl.Metadata(), snapshotID, nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// readTask reads the ids of one task.
func readTask(t testing.TB, tbl *table.Table, task scan.FileScanTask) []int64 {
	t.Helper()
	ctx := context.Background()
	it, err := datafile.ReadTask(ctx, tbl.IO(), tbl.Metadata(), task, nil, datafile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []int64
	for {
		rec, err := it.Next(ctx)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec.Column(0).(*array.Int64).Int64Values()...)
		rec.Release()
	}
}

func opener(tbl *table.Table) scan.Opener {
	return func(p string) (io.ReadCloser, error) { return tbl.IO().Open(context.Background(), p) }
}

// filesOnDisk lists every file under the table location, sorted.
func filesOnDisk(t testing.TB, tbl *table.Table) []string {
	t.Helper()
	var out []string
	for fi, err := range tbl.IO().List(context.Background(), tbl.Metadata().Location()) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fi.Location)
	}
	slices.Sort(out)
	return out
}

// liveFiles lists the data and delete files of main's head.
func liveFiles(t testing.TB, tbl *table.Table) (data, deletes []iceberg.DataFile) {
	t.Helper()
	ctx := context.Background()
	mfs, err := table.ManifestsOf(ctx, tbl.IO(), tbl.Metadata().CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		es, err := table.EntriesOf(ctx, tbl.IO(), tbl.Metadata(), mf)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			switch {
			case e.Status == iceberg.StatusDeleted:
			case e.DataFile.Content == iceberg.ContentData:
				data = append(data, e.DataFile)
			default:
				deletes = append(deletes, e.DataFile)
			}
		}
	}
	return data, deletes
}

// deleteIDs commits position deletes (merge-on-read) for the given ids.
func deleteIDs(t testing.TB, tbl *table.Table, ids ...int64) *table.Table {
	t.Helper()
	ctx := context.Background()
	meta := tbl.Metadata()
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	tasks, _, err := scan.Plan(ctx, opener(tbl), meta, meta.CurrentSnapshotID(), nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := datafile.NewPositionDeleteWriter(ctx, tbl.IO(), meta, datafile.PositionDeleteOptions{})
	var targets []string
	for _, task := range tasks {
		it, err := datafile.ReadTask(ctx, tbl.IO(), meta, task, nil, datafile.ReadOptions{WithPositions: true})
		if err != nil {
			t.Fatal(err)
		}
		var pos []int64
		for {
			rec, err := it.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			idCol := rec.Column(0).(*array.Int64)
			posCol := rec.Column(int(rec.NumCols()) - 1).(*array.Int64)
			for i := range idCol.Len() {
				if want[idCol.Value(i)] {
					pos = append(pos, posCol.Value(i))
				}
			}
			rec.Release()
		}
		it.Close()
		if len(pos) > 0 {
			if err := w.Delete(ctx, task.File, pos); err != nil {
				t.Fatal(err)
			}
			targets = append(targets, task.File.FilePath)
		}
	}
	files, err := w.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	u := tbl.NewRowDelta().RequireDataFiles(targets...)
	for _, f := range files {
		u.AddDeleteFile(f)
	}
	out, err := u.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func snapshotIDs(m *iceberg.TableMetadata) []int64 {
	var out []int64
	for _, s := range m.Snapshots() {
		out = append(out, s.SnapshotID)
	}
	return out
}
