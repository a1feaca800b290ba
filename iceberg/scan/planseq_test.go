package scan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg/expr"
)

func TestPlanSeqMatchesPlan(t *testing.T) {
	tb := newTable(t, nil)
	snap := manyManifests(t, tb, 7, 3)
	ctx := context.Background()
	tests := []struct {
		name   string
		filter expr.Expr
	}{
		{"all", nil},
		{"point", expr.Eq("id", 3011)},
		{"range", expr.And(expr.GtEq("id", 1000), expr.Lt("id", 4000))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, wantStats, err := Plan(ctx, tb.open, tb.meta, snap, tt.filter, Options{Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			var stats Stats
			var got []FileScanTask
			for task, err := range PlanSeq(ctx, tb.open, tb.meta, snap, tt.filter, Options{Workers: 2, Stats: &stats}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, task)
			}
			if !slices.Equal(paths(got), paths(want)) || stats != wantStats || len(got) == 0 {
				t.Errorf("PlanSeq %v %+v, Plan %v %+v", paths(got), stats, paths(want), wantStats)
			}
		})
	}
}

func TestPlanSeqIsLazy(t *testing.T) {
	tb := newTable(t, nil)
	snap := manyManifests(t, tb, 40, 2)
	opener := &countingOpener{open: tb.open}
	var first []string
	for task, err := range PlanSeq(context.Background(), opener.Open, tb.meta, snap, nil, Options{Workers: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, task.File.FilePath)
		break
	}
	if !slices.Equal(first, []string{"d-0-0.parquet"}) {
		t.Errorf("first task %v", first)
	}
	// the list, the consumed manifest and at most a window of 2 ahead
	if n := opener.opens.Load(); n > 4 {
		t.Errorf("stopping after one task opened %d files of 41", n)
	}
}

func TestPlanSeqErrors(t *testing.T) {
	tb := newTable(t, nil)
	snap := manyManifests(t, tb, 5, 2)
	if err := os.WriteFile(filepath.Join(tb.dir, "m3.avro"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	var planErr *PlanError
	for task, err := range PlanSeq(context.Background(), tb.open, tb.meta, snap, nil, Options{}) {
		if err != nil {
			if !errors.As(err, &planErr) || filepath.Base(planErr.Path) != "m3.avro" {
				t.Errorf("error %v, want a PlanError for m3.avro", err)
			}
			continue
		}
		got = append(got, task.File.FilePath)
	}
	// tasks of the manifests before the bad one stream first
	if planErr == nil || len(got) != 6 {
		t.Errorf("got %v before error %v", got, planErr)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	var last error
	for _, err := range PlanSeq(ctx, tb.open, tb.meta, snap, nil, Options{Workers: 1}) {
		if err != nil {
			last = err
			break
		}
		n++
		cancel()
	}
	if !errors.Is(last, context.Canceled) || n > 2 {
		t.Errorf("after cancel: %d tasks, err %v", n, last)
	}
}
