package interop

import (
	"context"
	"encoding/json"
	"iter"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	goiceberg "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	gotable "github.com/apache/iceberg-go/table"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/table"
)

// goSchema converts an icesql schema to iceberg-go's through the schema
// JSON both implement (ids are kept).
func goSchema(tb testing.TB, s *iceberg.Schema) *goiceberg.Schema {
	tb.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	var out goiceberg.Schema
	if err := json.Unmarshal(data, &out); err != nil {
		tb.Fatal(err)
	}
	return &out
}

// goCreateTable creates ns.name with iceberg-go at <warehouse>/ns/name.
func goCreateTable(tb testing.TB, cat catalog.Catalog, warehouse string, ident gotable.Identifier, schema *goiceberg.Schema, spec *goiceberg.PartitionSpec, props goiceberg.Properties) *gotable.Table {
	tb.Helper()
	ctx := context.Background()
	ns := ident[:len(ident)-1]
	if ok, err := cat.CheckNamespaceExists(ctx, ns); err != nil {
		tb.Fatal(err)
	} else if !ok {
		if err := cat.CreateNamespace(ctx, ns, nil); err != nil {
			tb.Fatal(err)
		}
	}
	opts := []catalog.CreateTableOpt{
		catalog.WithLocation("file://" + filepath.ToSlash(filepath.Join(append([]string{warehouse}, ident...)...))),
		catalog.WithProperties(props),
	}
	if spec != nil {
		opts = append(opts, catalog.WithPartitionSpec(spec))
	}
	t, err := cat.CreateTable(ctx, ident, schema, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// nestedGoSpec is identity(category), day(ts), bucket(id, 4) over the
// nested fixture schema's ids.
func nestedGoSpec(s *goiceberg.Schema) *goiceberg.PartitionSpec {
	id := func(name string) int {
		f, ok := s.FindFieldByName(name)
		if !ok {
			panic("fixture schema lacks " + name)
		}
		return f.ID
	}
	spec := goiceberg.NewPartitionSpec(
		goiceberg.PartitionField{SourceIDs: []int{id("category")}, FieldID: 1000, Name: "category", Transform: goiceberg.IdentityTransform{}},
		goiceberg.PartitionField{SourceIDs: []int{id("ts")}, FieldID: 1001, Name: "ts_day", Transform: goiceberg.DayTransform{}},
		goiceberg.PartitionField{SourceIDs: []int{id("id")}, FieldID: 1002, Name: "id_bucket", Transform: goiceberg.BucketTransform{NumBuckets: 4}},
	)
	return &spec
}

func goAppend(tb testing.TB, t *gotable.Table, recs ...arrow.RecordBatch) *gotable.Table {
	tb.Helper()
	rdr := recordReader(tb, recs...)
	defer rdr.Release()
	out, err := t.Append(context.Background(), rdr, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func oneBatch(rec arrow.RecordBatch) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) }
}

// TestIcebergGoWritesIcesqlReads: iceberg-go creates a table, appends three
// times, deletes rows merge-on-read (position delete files) and commits
// equality delete files in a row delta; icesql plans and reads the same rows.
func TestIcebergGoWritesIcesqlReads(t *testing.T) {
	for _, tc := range []struct {
		name        string
		partitioned bool
	}{
		{"partitioned", true},
		{"unpartitioned", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			catFile := filepath.Join(dir, "catalog.db")
			goCat := openGoCatalog(t, catFile, dir)
			ident := goIdent([]string{"db"}, "events")
			gs := goSchema(t, nestedSchema(t))
			var spec *goiceberg.PartitionSpec
			if tc.partitioned {
				spec = nestedGoSpec(gs)
			}
			goTbl := goCreateTable(t, goCat, dir, ident, gs, spec, goiceberg.Properties{
				gotable.WriteDeleteModeKey: gotable.WriteModeMergeOnRead,
			})

			ice := openIce(t, catFile, dir, false)
			iceIdent := table.Identifier{Namespace: []string{"db"}, Name: "events"}
			sc := arrowOf(t, ice.load(t, iceIdent).Schema())

			const n = 450
			for _, part := range [][2]int{{0, 150}, {150, 300}, {300, n}} {
				rec := buildRecord(t, sc, nestedRows(part[0], part[1]))
				goTbl = goAppend(t, goTbl, rec)
				rec.Release()
			}

			// Position deletes: ids 3 mod 10, in every file, so no file is
			// dropped whole and iceberg-go writes position delete files.
			var posDeleted []int64
			for i := int64(0); i < n; i++ {
				if i%10 == 3 {
					posDeleted = append(posDeleted, i)
				}
			}
			tx := goTbl.NewTransaction()
			if err := tx.Delete(ctx, goiceberg.IsIn(goiceberg.Reference("id"), posDeleted...), nil); err != nil {
				t.Fatal(err)
			}
			goTbl, err := tx.Commit(ctx)
			if err != nil {
				t.Fatal(err)
			}

			// Equality deletes on id: ids 4 mod 10. A partitioned table's
			// equality deletes carry the partition source columns too.
			eqDeleted := map[int64]bool{}
			var eqRows [][]any
			for i := 0; i < n; i++ {
				if i%10 == 4 {
					r := nestedRow(i)
					eqDeleted[int64(i)] = true
					if tc.partitioned {
						eqRows = append(eqRows, []any{r[0], r[1], r[2]})
					} else {
						eqRows = append(eqRows, []any{r[0]})
					}
				}
			}
			idField, _ := goTbl.Schema().FindFieldByName("id")
			eqCols := []string{"id"}
			if tc.partitioned {
				eqCols = []string{"id", "category", "ts"}
			}
			eqSchema := arrowSelect(t, sc, eqCols...)
			eqRec := buildRecord(t, eqSchema, eqRows)
			tx = goTbl.NewTransaction()
			files, err := tx.WriteEqualityDeletes(ctx, []int{idField.ID}, oneBatch(eqRec))
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

			var kept [][]any
			for _, r := range nestedRows(0, n) {
				id := r[0].(int64)
				if id%10 != 3 && !eqDeleted[id] {
					kept = append(kept, r)
				}
			}
			want := expectedRows(t, sc, kept)

			iceTbl := ice.load(t, iceIdent)
			t.Run("icesql plans both delete kinds", func(t *testing.T) {
				requireDeleteKinds(t, iceTbl)
			})
			t.Run("icesql reads", func(t *testing.T) {
				// iceberg-go v0.7.0 may write position delete files not
				// sorted by file_path (the spec asks for sorted; Java and
				// icesql read them anyway). Read per task, then with one
				// delete cache for the scan.
				t.Logf("unsorted position delete file: %v", unsortedPositionDeletes(t, iceTbl))
				for _, opts := range []datafile.ReadOptions{{}, {DeleteCache: datafile.NewDeleteCache(0)}} {
					got, err := iceRowsOpts(iceTbl, opts)
					if err != nil {
						t.Fatal(err)
					}
					requireSameRows(t, "expected", want, "icesql", got)
				}
			})
			t.Run("iceberg-go agrees", func(t *testing.T) {
				requireSameRows(t, "expected", want, "iceberg-go", goRows(t, goTbl))
			})
			t.Run("same snapshots", func(t *testing.T) {
				if got, want := len(iceTbl.Metadata().Snapshots()), len(goTbl.Metadata().Snapshots()); got != want || got != 5 {
					t.Fatalf("icesql sees %d snapshots, iceberg-go %d, want 5", got, want)
				}
			})
		})
	}
}

// arrowSelect keeps the named top-level fields of sc, in the given order.
func arrowSelect(tb testing.TB, sc *arrow.Schema, names ...string) *arrow.Schema {
	tb.Helper()
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		idx := sc.FieldIndices(n)
		if len(idx) != 1 {
			tb.Fatalf("schema lacks %s", n)
		}
		fields[i] = sc.Field(idx[0])
	}
	return arrow.NewSchema(fields, nil)
}

// requireDeleteKinds checks that icesql's plan attaches both position and
// equality delete files, so the read really applied both.
func requireDeleteKinds(tb testing.TB, t *table.Table) {
	tb.Helper()
	tasks, err := icePlan(context.Background(), t)
	if err != nil {
		tb.Fatal(err)
	}
	kinds := map[iceberg.FileContent]int{}
	for _, task := range tasks {
		for _, d := range task.Deletes {
			kinds[d.File.Content]++
		}
	}
	if kinds[iceberg.ContentPositionDeletes] == 0 || kinds[iceberg.ContentEqualityDeletes] == 0 {
		tb.Fatalf("planned delete files by content: %v; want both position and equality deletes", kinds)
	}
}

// unsortedPositionDeletes reports whether any planned position delete file
// has file_path values out of order, reading it with arrow-go's Parquet
// reader (independent of icesql's).
func unsortedPositionDeletes(tb testing.TB, t *table.Table) bool {
	tb.Helper()
	tasks, err := icePlan(context.Background(), t)
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	for _, task := range tasks {
		for _, d := range task.Deletes {
			if d.File.Content != iceberg.ContentPositionDeletes || seen[d.File.FilePath] {
				continue
			}
			seen[d.File.FilePath] = true
			paths := readStringColumn(tb, d.File.FilePath, datafile.DeleteFilePathName)
			if !slices.IsSorted(paths) {
				return true
			}
		}
	}
	return false
}
