package datafile

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

// writeRowGroups writes one data file with a row group per batch of 100
// rows: ids 0..999, category "a" except for a null in the group 300..399.
func writeRowGroups(t *testing.T, tt testTable) iceberg.DataFile {
	t.Helper()
	var recs []arrow.RecordBatch
	for g := 0; g < 10; g++ {
		cats := []string{"a"}
		if g == 3 {
			cats = []string{"a", ""}
		}
		r := testRows(t, testSchema(), g*100, 100, cats)
		t.Cleanup(r.Release)
		recs = append(recs, r)
	}
	files := writeAll(t, tt, WriterOptions{Parquet: &parquetfile.WriterOptions{RowGroupSizeBytes: 1}}, recs...)
	if len(files) != 1 {
		t.Fatalf("%d files", len(files))
	}
	return files[0]
}

func TestRowGroupsMatchingResidual(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	data := writeRowGroups(t, tt)
	schema := tt.meta.CurrentSchema()
	in, err := tt.fio.Open(context.Background(), data.FilePath)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pr, err := openParquet(in)
	if err != nil {
		t.Fatal(err)
	}
	if pr.NumRowGroups() != 10 {
		t.Fatalf("%d row groups, want 10", pr.NumRowGroups())
	}
	groups := func(idx ...int) []bool {
		out := make([]bool, 10)
		for _, i := range idx {
			out[i] = true
		}
		return out
	}
	tests := []struct {
		name  string
		e     expr.Expr
		want  []bool // nil: every group kept
		whole []bool // nil: no group matches throughout
	}{
		{"id range", expr.And(expr.GtEq("id", int64(250)), expr.Lt("id", int64(420))), groups(2, 3, 4), groups(3)},
		{"range on group bounds", expr.And(expr.GtEq("id", int64(300)), expr.LtEq("id", int64(499))), groups(3, 4), groups(3, 4)},
		{"bounds just inside", expr.And(expr.Gt("id", int64(300)), expr.Lt("id", int64(499))), groups(3, 4), nil},
		{"id equal", expr.Eq("id", int64(999)), groups(9), nil},
		{"or", expr.Or(expr.Lt("id", int64(5)), expr.Gt("id", int64(905))), groups(0, 9), nil},
		{"or of whole groups", expr.Or(expr.Lt("id", int64(100)), expr.GtEq("id", int64(900))), groups(0, 9), groups(0, 9)},
		{"struct field", expr.Lt("point.y", float64(-950)), groups(9), nil},
		{"is null uses null counts", expr.IsNull("category"), groups(3), nil},
		{"not null: the group with a null is not whole", expr.NotNull("category"), nil, groups(0, 1, 2, 4, 5, 6, 7, 8, 9)},
		{"no group", expr.Gt("id", int64(5000)), groups(), nil},
		{"not equal rules nothing out", expr.NotEq("id", int64(5)), nil, groups(1, 2, 3, 4, 5, 6, 7, 8, 9)},
		{"every group", expr.GtEq("id", int64(0)), nil, groups(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := expr.Bind(schema, tc.e, true)
			if err != nil {
				t.Fatal(err)
			}
			got, whole, err := rowGroupsMatching(context.Background(), pr, schema, b, predicateIDs(b), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("groups %v, want %v", got, tc.want)
			}
			if !slices.Equal(whole, tc.whole) {
				t.Errorf("whole groups %v, want %v", whole, tc.whole)
			}
		})
	}
	t.Run("field not in the table schema", func(t *testing.T) {
		b, err := expr.Bind(schema, expr.Gt("id", int64(5000)), true)
		if err != nil {
			t.Fatal(err)
		}
		got, whole, err := rowGroupsMatching(context.Background(), pr, schema, b, []int{1, 999}, nil)
		if err != nil || got != nil || whole != nil {
			t.Errorf("groups %v, whole %v, err %v; want every group kept, none whole", got, whole, err)
		}
	})
}

// TestReadTaskSkipsRowGroups reads with residuals that skip row groups,
// with and without an auxiliary reader for columns outside the projection,
// and checks rows and positions against the unskipped answer.
func TestReadTaskSkipsRowGroups(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	data := writeRowGroups(t, tt)
	schema := tt.meta.CurrentSchema()
	idOnly, _ := schema.Select(1)
	eq := writeEqualityDeletes(t, tt, "")
	tests := []struct {
		name string
		e    expr.Expr
		proj *iceberg.Schema
		keep func(i int) bool
	}{
		{"projected column", expr.And(expr.GtEq("id", int64(250)), expr.Lt("id", int64(420))), nil,
			func(i int) bool { return i >= 250 && i < 420 }},
		{"column outside the projection", expr.Lt("point.y", float64(-950)), idOnly,
			func(i int) bool { return i > 950 }},
		{"every group skipped", expr.Gt("id", int64(5000)), idOnly, func(int) bool { return false }},
		// Groups 3 and 4 match whole (the residual is not evaluated on
		// them), 2 and 5 in part.
		{"whole groups", expr.And(expr.GtEq("id", int64(250)), expr.Lt("id", int64(550))), nil,
			func(i int) bool { return i >= 250 && i < 550 }},
		{"whole groups outside the projection", expr.NotNull("category"), idOnly,
			func(i int) bool { return i < 300 || i >= 400 || i%2 == 0 }},
	}
	// Position deletes in whole, partial and skipped groups.
	posDeleted := []int64{0, 249, 250, 301, 302, 399, 400, 549, 550, 999}
	ctx := context.Background()
	w := NewPositionDeleteWriter(ctx, tt.fio, tt.meta, PositionDeleteOptions{})
	if err := w.Delete(ctx, data, posDeleted); err != nil {
		t.Fatal(err)
	}
	pos, err := w.Close(ctx)
	if err != nil || len(pos) != 1 {
		t.Fatalf("%d position delete files, %v", len(pos), err)
	}
	for _, tc := range tests {
		for _, deletes := range []string{"equality", "position", "none"} {
			t.Run(tc.name+"/"+deletes, func(t *testing.T) {
				b, err := expr.Bind(schema, tc.e, true)
				if err != nil {
					t.Fatal(err)
				}
				task := scan.FileScanTask{File: data, DataSequenceNumber: 1, Residual: b}
				deleted := func(int) bool { return false }
				switch deletes {
				case "equality":
					// The equality delete on category = null needs the
					// category column from the auxiliary reader when it is
					// not projected.
					task.Deletes = []scan.DeleteFile{{File: eq, DataSequenceNumber: 2}}
					deleted = func(i int) bool { return i >= 300 && i < 400 && i%2 == 1 }
				case "position":
					task.Deletes = []scan.DeleteFile{{File: pos[0], DataSequenceNumber: 1}}
					deleted = func(i int) bool { return slices.Contains(posDeleted, int64(i)) }
				}
				recs := readAll(t, tt, task, tc.proj, ReadOptions{BatchSize: 64, WithPositions: true})
				want := seqInts(0, 1000, func(i int) bool { return !tc.keep(i) || deleted(i) })
				if got := int64Column(t, recs, "id"); !slices.Equal(got, want) {
					t.Errorf("ids %v\nwant %v", got, want)
				}
				if got := int64Column(t, recs, PosColumnName); !slices.Equal(got, want) {
					t.Errorf("positions %v\nwant %v", got, want)
				}
			})
		}
	}
}
