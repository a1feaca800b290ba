package table

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// memCatalog is an in-memory Catalog with a real compare-and-swap, for
// testing the commit protocol without SQLite.
type memCatalog struct {
	mu       sync.Mutex
	pointers map[string]string
	// beforeSwap, when set, runs (unlocked) before each swap.
	beforeSwap func(ident Identifier)
	// lostSwaps makes that many swaps fail with an unknown outcome
	// without applying them (a write that never reached the database).
	lostSwaps int
}

func newMemCatalog() *memCatalog { return &memCatalog{pointers: map[string]string{}} }

func (c *memCatalog) CurrentMetadataLocation(_ context.Context, id Identifier) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	loc, ok := c.pointers[id.String()]
	if !ok {
		return "", fmt.Errorf("%w: %s", iceberg.ErrNoSuchTable, id)
	}
	return loc, nil
}

func (c *memCatalog) CurrentMetadataLocations(ctx context.Context, ids []Identifier) ([]string, error) {
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

func (c *memCatalog) Swap(ctx context.Context, id Identifier, expected, next string) error {
	return c.SwapAll(ctx, []Swap{{Ident: id, Expected: expected, Next: next}})
}

func (c *memCatalog) SwapAll(_ context.Context, swaps []Swap) error {
	if c.beforeSwap != nil {
		for _, s := range swaps {
			c.beforeSwap(s.Ident)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lostSwaps > 0 {
		c.lostSwaps--
		return fmt.Errorf("%w: connection reset", iceberg.ErrCommitStateUnknown)
	}
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

func (c *memCatalog) Create(_ context.Context, id Identifier, loc string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pointers[id.String()]; ok {
		return fmt.Errorf("%w: %s", iceberg.ErrTableAlreadyExists, id)
	}
	c.pointers[id.String()] = loc
	return nil
}

var eventsSchema = iceberg.MustSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
	iceberg.NestedField{ID: 2, Name: "action", Type: iceberg.StringType{}},
	iceberg.NestedField{ID: 3, Name: "event_ts", Type: iceberg.TimestampTzType{}},
)

type fixture struct {
	env   *Env
	cat   *memCatalog
	dir   string
	ident Identifier
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	cat := newMemCatalog()
	return &fixture{env: &Env{Catalog: cat, IO: &fileio.Local{}}, cat: cat, dir: dir,
		ident: Identifier{Namespace: []string{"db"}, Name: "events"}}
}

// createEvents creates the events table partitioned by days(event_ts).
func (f *fixture) createEvents(t testing.TB, props map[string]string) *Table {
	t.Helper()
	spec, err := iceberg.NewPartitionSpecBuilder(eventsSchema).Day("event_ts").Build()
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := fileio.LocalURI(filepath.Join(f.dir, "events"))
	tbl, err := Create(context.Background(), f.env, f.ident, eventsSchema, loc, CreateOptions{Spec: spec, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

var day0 = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)

// dayFile describes (and creates, so file counts are real) a data file
// of n rows on day d, with event_ts bounds inside that day.
func (f *fixture) dayFile(t testing.TB, tbl *Table, d int, n int64) iceberg.DataFile {
	t.Helper()
	ts := day0.AddDate(0, 0, d)
	lo, _ := iceberg.SerializeValue(iceberg.TimestampTzType{}, iceberg.Timestamp(ts.UnixMicro()))
	hi, _ := iceberg.SerializeValue(iceberg.TimestampTzType{}, iceberg.Timestamp(ts.Add(23*time.Hour).UnixMicro()))
	path := fmt.Sprintf("%s/event_ts_day=%s/%s.parquet", tbl.DataDir(), ts.Format("2006-01-02"), iceberg.NewUUIDString())
	out, err := f.env.IO.Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	out.Write([]byte("PAR1"))
	out.Close()
	return iceberg.DataFile{
		Content: iceberg.ContentData, FilePath: path, FileFormat: iceberg.FormatParquet,
		SpecID: tbl.Spec().ID, Partition: []any{iceberg.Date(ts.Unix() / 86400)},
		RecordCount: n, FileSizeInBytes: 4,
		ValueCounts: map[int]int64{3: n}, NullValueCounts: map[int]int64{3: 0},
		LowerBounds: map[int][]byte{3: lo}, UpperBounds: map[int][]byte{3: hi},
	}
}

func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func localDir(t *testing.T, uri string) string {
	p, err := fileio.LocalPath(uri)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// liveFiles lists the live data file paths of the current snapshot.
func liveFiles(t *testing.T, tbl *Table) []string {
	t.Helper()
	ctx := context.Background()
	mfs, err := ManifestsOf(ctx, tbl.IO(), tbl.Metadata().CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mf := range mfs {
		es, err := EntriesOf(ctx, tbl.IO(), tbl.Metadata(), mf)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Status != iceberg.StatusDeleted {
				out = append(out, e.DataFile.FilePath)
			}
		}
	}
	slices.Sort(out)
	return out
}

func basename(p string) string { return p[strings.LastIndex(p, "/")+1:] }
