package writeorder

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/sqlexec/exec"
)

// fixture is a table ordered by k DESC whose files land under dir.
func fixture(t *testing.T) (meta *iceberg.TableMetadata, rows *arrow.Schema, dir string) {
	t.Helper()
	dir = t.TempDir()
	loc, err := fileio.LocalURI(dir)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := iceberg.NewSchema(0, []iceberg.NestedField{{ID: 1, Name: "k", Type: iceberg.LongType{}}})
	if err != nil {
		t.Fatal(err)
	}
	order := &iceberg.SortOrder{OrderID: 1, Fields: []iceberg.SortField{{SourceID: 1, Transform: iceberg.IdentityTransform{}, Direction: iceberg.SortDesc, NullOrder: iceberg.NullsLast}}}
	if meta, err = iceberg.NewTableMetadata(schema, iceberg.UnpartitionedSpec, order, loc, nil); err != nil {
		t.Fatal(err)
	}
	if rows, err = arrowschema.ToArrow(schema); err != nil {
		t.Fatal(err)
	}
	return meta, rows, dir
}

func batch(rows *arrow.Schema, vals ...int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, rows)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues(vals, nil)
	return b.NewRecordBatch()
}

func dataFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "data", "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The Writer's three ways out: Close writes the pushed rows sorted (one
// file recording the order); Abort, and a failed sort, leave no file and
// no goroutine behind, and later Writes report the failure.
func TestWriterSortsAndCleansUp(t *testing.T) {
	ctx := context.Background()
	t.Run("close", func(t *testing.T) {
		meta, rows, dir := fixture(t)
		keys, id, err := Keys(meta, rows)
		if err != nil || len(keys) != 1 || id != 1 {
			t.Fatalf("Keys = %d keys, id %d, %v", len(keys), id, err)
		}
		w := NewWriter(ctx, &exec.EvalContext{Mem: memory.DefaultAllocator}, datafile.NewWriter(ctx, &fileio.Local{NoSync: true}, meta, datafile.WriterOptions{SortOrderID: &id}), rows, keys)
		for _, vals := range [][]int64{{3, 9, 1}, {7, 2}, {8}} {
			b := batch(rows, vals...)
			if err := w.Write(ctx, b); err != nil {
				t.Fatal(err)
			}
			b.Release() // the Writer holds its own reference
		}
		files, err := w.Close(ctx)
		if err != nil || len(files) != 1 {
			t.Fatalf("Close: %d files, %v", len(files), err)
		}
		if f := files[0]; f.RecordCount != 6 || f.SortOrderID == nil || *f.SortOrderID != 1 {
			t.Fatalf("file: %d rows, sort order %v", f.RecordCount, f.SortOrderID)
		}
		if got := readBack(t, dataFiles(t, dir)[0]); !slices.Equal(got, []int64{9, 8, 7, 3, 2, 1}) {
			t.Fatalf("rows in the file: %v, want 9 8 7 3 2 1", got)
		}
	})
	t.Run("abort", func(t *testing.T) {
		meta, rows, dir := fixture(t)
		keys, id, _ := Keys(meta, rows)
		w := NewWriter(ctx, &exec.EvalContext{Mem: memory.DefaultAllocator}, datafile.NewWriter(ctx, &fileio.Local{NoSync: true}, meta, datafile.WriterOptions{SortOrderID: &id}), rows, keys)
		b := batch(rows, 1, 2, 3)
		defer b.Release()
		if err := w.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
		if err := w.Abort(ctx); err != nil {
			t.Fatal(err)
		}
		if f := dataFiles(t, dir); len(f) != 0 {
			t.Fatalf("files left after Abort: %v", f)
		}
		if err := w.Write(ctx, b); err == nil {
			t.Fatal("Write after Abort succeeded")
		}
	})
	t.Run("failed sort", func(t *testing.T) {
		meta, rows, dir := fixture(t)
		keys, id, _ := Keys(meta, rows)
		w := NewWriter(ctx, &exec.EvalContext{Mem: memory.DefaultAllocator}, datafile.NewWriter(ctx, &fileio.Local{NoSync: true}, meta, datafile.WriterOptions{SortOrderID: &id}), rows, keys)
		good := batch(rows, 1, 2)
		defer good.Release()
		if err := w.Write(ctx, good); err != nil {
			t.Fatal(err)
		}
		// a batch of another type: the sort's key evaluation fails on it
		wrong := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		sb.Append("x")
		col := sb.NewArray()
		sb.Release()
		bad := array.NewRecordBatch(wrong, []arrow.Array{col}, 1)
		col.Release()
		defer bad.Release()
		_ = w.Write(ctx, bad)
		if _, err := w.Close(ctx); err == nil {
			t.Fatal("Close after a failed sort succeeded")
		}
		if f := dataFiles(t, dir); len(f) != 0 {
			t.Fatalf("files left after a failed sort: %v", f)
		}
		if err := w.Write(ctx, good); err == nil {
			t.Fatal("Write after a failed sort succeeded")
		}
	})
}

func readBack(t *testing.T, path string) []int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := parquetfile.Open(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	schema, err := r.Schema(nil)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), schema, parquetfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	bs, err := rr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, b := range bs {
		out = append(out, b.Column(0).(*array.Int64).Int64Values()...)
		b.Release()
	}
	return out
}
