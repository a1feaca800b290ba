package sqlexec

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

func tasksOfSizes(sizes ...int64) []scan.FileScanTask {
	out := make([]scan.FileScanTask, len(sizes))
	for i, s := range sizes {
		out[i] = scan.FileScanTask{File: iceberg.DataFile{FilePath: fmt.Sprintf("f%d", i), FileSizeInBytes: s}}
	}
	return out
}

func TestBalanceTasks(t *testing.T) {
	tests := []struct {
		name       string
		sizes      []int64
		n          int
		wantGroups int
		wantMax    int64 // largest group's bytes
	}{
		{name: "no tasks", n: 4, wantGroups: 0},
		{name: "one worker", sizes: []int64{5, 6, 7}, n: 1, wantGroups: 1, wantMax: 18},
		{name: "fewer tasks than workers", sizes: []int64{5, 6}, n: 8, wantGroups: 2, wantMax: 6},
		{name: "big file alone", sizes: []int64{100, 10, 10, 10, 10}, n: 2, wantGroups: 2, wantMax: 100},
		{name: "even split", sizes: []int64{4, 4, 3, 3, 2, 2}, n: 2, wantGroups: 2, wantMax: 9},
		{name: "zero sizes still spread", sizes: []int64{0, 0, 0, 0}, n: 2, wantGroups: 2, wantMax: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tasks := tasksOfSizes(tc.sizes...)
			groups := balanceTasks(tasks, tc.n)
			if len(groups) != tc.wantGroups {
				t.Fatalf("%d groups, want %d", len(groups), tc.wantGroups)
			}
			var seen []string
			var biggest int64
			for _, g := range groups {
				if len(g) == 0 {
					t.Fatal("empty group")
				}
				var sum int64
				for _, task := range g {
					seen = append(seen, task.File.FilePath)
					sum += task.File.FileSizeInBytes
				}
				biggest = max(biggest, sum)
			}
			slices.Sort(seen)
			var want []string
			for _, task := range tasks {
				want = append(want, task.File.FilePath)
			}
			slices.Sort(want)
			if !slices.Equal(seen, want) {
				t.Fatalf("groups hold %v, want each of %v once", seen, want)
			}
			if biggest != tc.wantMax {
				t.Fatalf("largest group has %d bytes, want %d", biggest, tc.wantMax)
			}
		})
	}
}

// collectIDs reads the first (int64) column of every iterator.
func collectIDs(t *testing.T, its ...exec.RecordIterator) []int64 {
	t.Helper()
	var out []int64
	for _, it := range its {
		batches, err := exec.Collect(context.Background(), it)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range batches {
			for i := 0; i < int(b.NumRows()); i++ {
				out = append(out, exec.ValueAt(b.Column(0), i).(int64))
			}
		}
		exec.ReleaseAll(batches)
		it.Close()
	}
	slices.Sort(out)
	return out
}

func TestScanPartitionsMatchScan(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE t (id BIGINT, s STRING) PARTITIONED BY (bucket(4, id))")
	mustExec(t, s, "ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode'='merge-on-read')")
	for i := 0; i < 5; i++ {
		mustExec(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d, 'x'), (%d, 'x'), (%d, 'x'), (%d, 'x'), (%d, 'x')", i*10, i*10+1, i*10+2, i*10+3, i*10+4))
	}
	mustExec(t, s, "DELETE FROM t WHERE id % 3 = 0")
	tab, err := s.openTable(ctx, &parser.TableRef{Parts: []string{"t"}, Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	pt, ok := tab.(planner.PartitionedTable)
	if !ok {
		t.Fatal("the Iceberg table does not split its scans")
	}
	tests := []struct {
		name string
		req  planner.ScanRequest
	}{
		{name: "all columns", req: planner.ScanRequest{Columns: []int{0, 1}, Limit: -1}},
		{name: "count only", req: planner.ScanRequest{Columns: []int{}, Limit: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			whole, err := tab.Scan(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			parts, err := pt.ScanPartitions(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) == 0 {
				t.Fatal("no partitions")
			}
			if len(tc.req.Columns) == 0 {
				if a, b := countRows(t, whole), countRows(t, parts...); a != b || a != 17 {
					t.Fatalf("scan has %d rows, partitions %d, want 17", a, b)
				}
				return
			}
			want, got := collectIDs(t, whole), collectIDs(t, parts...)
			if len(want) != 17 || !slices.Equal(want, got) {
				t.Fatalf("partitions read %v, scan %v", got, want)
			}
		})
	}
	// The parallel aggregate reads the partitions.
	if n := count(t, s, "SELECT sum(id) FROM t"); n != 0+1+2+3+4+10+11+12+13+14+20+21+22+23+24+30+31+32+33+34+40+41+42+43+44-(0+3+12+21+24+30+33+42) {
		t.Fatalf("sum %d", n)
	}
}

func countRows(t *testing.T, its ...exec.RecordIterator) int64 {
	t.Helper()
	var n int64
	for _, it := range its {
		batches, err := exec.Collect(context.Background(), it)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range batches {
			n += b.NumRows()
		}
		exec.ReleaseAll(batches)
		it.Close()
	}
	return n
}

// ExactFilters reports the comparisons the data file reader applies with
// SQL's answers, and none when the pruning filter does not bind (plan
// then reads every row).
func TestExactFilters(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	mustExec(t, s, "CREATE TABLE t (id BIGINT, s STRING, x DOUBLE, ts TIMESTAMP)")
	mustExec(t, s, "INSERT INTO t VALUES (1, 'a', 1.5, TIMESTAMP '2024-01-01 00:00:00')")
	tab, err := s.openTable(ctx, &parser.TableRef{Parts: []string{"t"}, Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	sch := tab.Schema()
	col := func(i int) *planner.ColumnRef {
		return &planner.ColumnRef{Index: i, Name: sch.Field(i).Name, Type: sch.Field(i).Type}
	}
	lit := func(v any, dt arrow.DataType) *planner.Literal { return &planner.Literal{Value: v, Type: dt} }
	idLT := &planner.Compare{Op: exec.CmpLT, L: col(0), R: lit(int64(5), arrow.PrimitiveTypes.Int64)}
	sEq := &planner.Compare{Op: exec.CmpEQ, L: lit("a", arrow.BinaryTypes.String), R: col(1)}
	xGT := &planner.Compare{Op: exec.CmpGT, L: col(2), R: lit(1.0, arrow.PrimitiveTypes.Float64)}
	tsGE := &planner.Compare{Op: exec.CmpGE, L: col(3), R: lit(arrow.Timestamp(0), sch.Field(3).Type)}
	idInt32 := &planner.Compare{Op: exec.CmpLT, L: col(0), R: lit(int32(5), arrow.PrimitiveTypes.Int32)}
	unbound := &planner.Compare{Op: exec.CmpLT, L: col(0), R: lit("x", arrow.BinaryTypes.String)}
	tests := []struct {
		name    string
		filters []planner.Expr
		want    []bool
	}{
		{"long, string and timestamp comparisons", []planner.Expr{idLT, sEq, tsGE}, []bool{true, true, true}},
		{"double is re-applied", []planner.Expr{idLT, xGT}, []bool{true, false}},
		{"or of exact parts", []planner.Expr{&planner.Logic{Or: true, L: idLT, R: sEq}}, []bool{true}},
		{"or with a double", []planner.Expr{&planner.Logic{Or: true, L: idLT, R: xGT}}, []bool{false}},
		{"not", []planner.Expr{&planner.Not{E: idLT}}, []bool{false}},
		{"is null", []planner.Expr{&planner.IsNull{E: col(1)}}, []bool{true}},
		{"literal of another type", []planner.Expr{idInt32}, []bool{false}},
		{"a filter that does not bind voids all", []planner.Expr{idLT, unbound}, []bool{false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tab.(planner.ExactFilterer).ExactFilters(planner.ScanRequest{Columns: []int{0, 1, 2, 3}, Filters: tc.filters, Limit: -1})
			if !slices.Equal(got, tc.want) {
				t.Fatalf("ExactFilters = %v, want %v", got, tc.want)
			}
		})
	}
}
