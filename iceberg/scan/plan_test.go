package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/manifest"
)

var testSchema = iceberg.MustSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
	iceberg.NestedField{ID: 2, Name: "event_ts", Type: iceberg.TimestampType{}},
	iceberg.NestedField{ID: 3, Name: "s", Type: iceberg.StringType{}},
)

const dayMicros = int64(86_400_000_000)

// table is a test table on disk: metadata plus manifests written with the
// manifest package.
type table struct {
	t    testing.TB
	dir  string
	meta *iceberg.TableMetadata
}

func newTable(t testing.TB, spec *iceberg.PartitionSpec) *table {
	t.Helper()
	meta, err := iceberg.NewTableMetadata(testSchema, spec, nil, "file:///t", nil)
	if err != nil {
		t.Fatal(err)
	}
	return &table{t: t, dir: t.TempDir(), meta: meta}
}

func (tb *table) open(path string) (io.ReadCloser, error) { return os.Open(path) }

// manifestOf writes one manifest of files with the given data sequence
// number and returns its list entry.
func (tb *table) manifestOf(name string, content iceberg.ManifestContent, seq int64, files ...iceberg.DataFile) iceberg.ManifestFile {
	tb.t.Helper()
	var buf bytes.Buffer
	spec := tb.meta.CurrentSpec()
	w, err := manifest.NewManifestWriter(&buf, tb.meta.FormatVersion(), spec, testSchema, content, 1)
	if err != nil {
		tb.t.Fatal(err)
	}
	for _, f := range files {
		f.SpecID = spec.ID
		if err := w.Add(f); err != nil {
			tb.t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.t.Fatal(err)
	}
	path := filepath.Join(tb.dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.t.Fatal(err)
	}
	mf := w.ToManifestFile(path, int64(buf.Len()))
	mf.SequenceNumber, mf.MinSequenceNumber = seq, seq
	return mf
}

// commit writes a manifest list and makes it snapshot 1.
func (tb *table) commit(mfs ...iceberg.ManifestFile) int64 {
	tb.t.Helper()
	var buf bytes.Buffer
	if _, err := manifest.WriteManifestList(&buf, tb.meta.FormatVersion(), 1, nil, 10, nil, mfs); err != nil {
		tb.t.Fatal(err)
	}
	path := filepath.Join(tb.dir, "snap-1.avro")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.t.Fatal(err)
	}
	b := iceberg.NewMetadataBuilder(tb.meta)
	snap := &iceberg.Snapshot{SnapshotID: 1, SequenceNumber: 10, TimestampMs: 1, ManifestList: path,
		Summary: map[string]string{"operation": "append"}}
	if err := b.AddSnapshot(snap); err != nil {
		tb.t.Fatal(err)
	}
	if err := b.SetSnapshotRef("main", iceberg.NewBranch(1)); err != nil {
		tb.t.Fatal(err)
	}
	meta, err := b.Build()
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.meta = meta
	return 1
}

func ser(t testing.TB, typ iceberg.Type, v any) []byte {
	b, err := iceberg.SerializeValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dataFile has id and event_ts bounds.
func dataFile(t testing.TB, path string, partition []any, idLo, idHi int64, tsLo, tsHi int64) iceberg.DataFile {
	return iceberg.DataFile{
		Content: iceberg.ContentData, FilePath: path, FileFormat: iceberg.FormatParquet, Partition: partition,
		RecordCount: 100, FileSizeInBytes: 1000,
		ValueCounts:     map[int]int64{1: 100, 2: 100},
		NullValueCounts: map[int]int64{1: 0, 2: 0},
		LowerBounds:     map[int][]byte{1: ser(t, iceberg.LongType{}, idLo), 2: ser(t, iceberg.TimestampType{}, iceberg.Timestamp(tsLo))},
		UpperBounds:     map[int][]byte{1: ser(t, iceberg.LongType{}, idHi), 2: ser(t, iceberg.TimestampType{}, iceberg.Timestamp(tsHi))},
	}
}

var base = int64(1788220800) * 1_000_000 // 2026-09-01T00:00:00

func TestPlanPrunesByDayPartition(t *testing.T) {
	spec := &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{{SourceID: 2, FieldID: 1000, Name: "event_ts_day", Transform: iceberg.DayTransform{}}}}
	tb := newTable(t, spec)
	var mfs []iceberg.ManifestFile
	for d := range int64(10) {
		lo := base + d*dayMicros
		// every file covers all ids, so only the partition can prune
		f := dataFile(t, fmt.Sprintf("data-%d.parquet", d), []any{iceberg.Date(lo / dayMicros)}, 0, 1000, lo, lo+dayMicros-1)
		mfs = append(mfs, tb.manifestOf(fmt.Sprintf("m%d.avro", d), iceberg.ManifestContentData, 1, f))
	}
	snap := tb.commit(mfs...)

	filter := expr.And(expr.GtEq("event_ts", "2026-09-04T00:00:00"), expr.Lt("event_ts", "2026-09-05T00:00:00"))
	tasks, stats, err := Plan(context.Background(), tb.open, tb.meta, snap, filter, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].File.FilePath != "data-3.parquet" {
		t.Fatalf("planned %v, want data-3.parquet only", paths(tasks))
	}
	if stats.Manifests != 10 || stats.ManifestsPruned != 9 || stats.PlannedFiles != 1 {
		t.Errorf("stats = %+v", stats)
	}
	// the partition decides the filter fully, so nothing is left per row
	if _, ok := tasks[0].Residual.(expr.AlwaysTrue); !ok {
		t.Errorf("residual = %s, want TRUE", tasks[0].Residual)
	}

	// a filter no partition decides keeps every file and its residual
	tasks, _, err = Plan(context.Background(), tb.open, tb.meta, snap, expr.Eq("s", "x"), Options{})
	if err != nil || len(tasks) != 10 || tasks[0].Residual.String() != "s = 'x'" {
		t.Fatalf("got %d tasks, err %v", len(tasks), err)
	}
}

func TestPlanPrunesByColumnBounds(t *testing.T) {
	tb := newTable(t, nil)
	var files []iceberg.DataFile
	for i := range int64(10) {
		files = append(files, dataFile(t, fmt.Sprintf("data-%d.parquet", i), []any{}, i*100, i*100+99, base, base))
	}
	snap := tb.commit(tb.manifestOf("m.avro", iceberg.ManifestContentData, 1, files...))
	tasks, stats, err := Plan(context.Background(), tb.open, tb.meta, snap, expr.Eq("id", 542), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].File.FilePath != "data-5.parquet" {
		t.Fatalf("planned %v, want data-5.parquet", paths(tasks))
	}
	if stats.DataFiles != 10 || stats.PrunedByMetrics != 9 || stats.PlannedFiles != 1 {
		t.Errorf("stats = %+v", stats)
	}
	if tasks[0].Residual.String() != "id = 542" {
		t.Errorf("residual = %s", tasks[0].Residual)
	}
}

func TestPlanAttachesDeletes(t *testing.T) {
	spec := &iceberg.PartitionSpec{Fields: []iceberg.PartitionField{{SourceID: 3, FieldID: 1000, Name: "s", Transform: iceberg.IdentityTransform{}}}}
	tb := newTable(t, spec)
	a := dataFile(t, "a.parquet", []any{"x"}, 0, 10, base, base)
	b := dataFile(t, "b.parquet", []any{"y"}, 0, 10, base, base)
	other := "b.parquet"
	del := func(path string, content iceberg.FileContent, part string, ref *string) iceberg.DataFile {
		d := iceberg.DataFile{Content: content, FilePath: path, FileFormat: iceberg.FormatParquet, Partition: []any{part},
			RecordCount: 1, FileSizeInBytes: 10, ReferencedDataFile: ref}
		if content == iceberg.ContentEqualityDeletes {
			d.EqualityIDs = []int{1}
		}
		return d
	}
	mData := tb.manifestOf("data.avro", iceberg.ManifestContentData, 5, a, b)
	mSame := tb.manifestOf("del5.avro", iceberg.ManifestContentDeletes, 5,
		del("pos5.parquet", iceberg.ContentPositionDeletes, "x", nil),
		del("eq5.parquet", iceberg.ContentEqualityDeletes, "x", nil))
	mLater := tb.manifestOf("del6.avro", iceberg.ManifestContentDeletes, 6,
		del("eq6.parquet", iceberg.ContentEqualityDeletes, "x", nil),
		del("pos6-ref-b.parquet", iceberg.ContentPositionDeletes, "x", &other))
	mOld := tb.manifestOf("del4.avro", iceberg.ManifestContentDeletes, 4,
		del("pos4.parquet", iceberg.ContentPositionDeletes, "x", nil))
	snap := tb.commit(mData, mSame, mLater, mOld)

	tasks, stats, err := Plan(context.Background(), tb.open, tb.meta, snap, nil, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 || stats.DeleteManifests != 3 || stats.DeleteFiles != 5 {
		t.Fatalf("tasks %v, stats %+v", paths(tasks), stats)
	}
	got := map[string][]string{}
	for _, task := range tasks {
		for _, d := range task.Deletes {
			got[task.File.FilePath] = append(got[task.File.FilePath], d.File.FilePath)
		}
		if task.DataSequenceNumber != 5 {
			t.Errorf("%s data seq = %d, want 5", task.File.FilePath, task.DataSequenceNumber)
		}
	}
	// same-seq position delete applies, same-seq equality delete does not,
	// the later equality delete does, the referenced one targets b (another
	// partition) and the older position delete is too old
	if want := []string{"pos5.parquet", "eq6.parquet"}; fmt.Sprint(got["a.parquet"]) != fmt.Sprint(want) {
		t.Errorf("a deletes = %v, want %v", got["a.parquet"], want)
	}
	if len(got["b.parquet"]) != 0 {
		t.Errorf("b deletes = %v, want none", got["b.parquet"])
	}
	// pruning the partition also prunes its delete manifests' files
	tasks, _, err = Plan(context.Background(), tb.open, tb.meta, snap, expr.Eq("s", "y"), Options{})
	if err != nil || len(tasks) != 1 || len(tasks[0].Deletes) != 0 {
		t.Fatalf("tasks %v err %v", paths(tasks), err)
	}
}

func TestPlanErrors(t *testing.T) {
	tb := newTable(t, nil)
	snap := tb.commit(tb.manifestOf("m.avro", iceberg.ManifestContentData, 1, dataFile(t, "d.parquet", []any{}, 0, 1, base, base)))
	ctx := context.Background()
	if _, _, err := Plan(ctx, tb.open, tb.meta, 99, nil, Options{}); !errors.Is(err, iceberg.ErrNoSuchSnapshot) {
		t.Errorf("missing snapshot: %v", err)
	}
	if _, _, err := Plan(ctx, tb.open, tb.meta, snap, expr.Eq("nope", 1), Options{}); !errors.Is(err, iceberg.ErrNoSuchField) {
		t.Errorf("bad filter: %v", err)
	}
	if err := os.WriteFile(filepath.Join(tb.dir, "m.avro"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Plan(ctx, tb.open, tb.meta, snap, nil, Options{})
	var pe *PlanError
	if !errors.As(err, &pe) || !errors.Is(err, iceberg.ErrInvalidManifest) {
		t.Errorf("corrupt manifest: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := Plan(cancelled, tb.open, tb.meta, snap, nil, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func paths(tasks []FileScanTask) []string {
	var out []string
	for _, t := range tasks {
		out = append(out, t.File.FilePath)
	}
	return out
}
