package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// CollectJoinBuild stops once the estimate (with what other build sides
// hold) passes the limit; under it, NewJoinBuildFrom makes a shared build
// that probes as the join's own build would.
func TestCollectJoinBuild(t *testing.T) {
	tests := []struct {
		name     string
		limit    int64
		used     int64
		keys     []Expr
		wantOver bool
	}{
		{"fits", 64 << 20, 0, []Expr{col(0)}, false},
		{"over the limit", 64 << 10, 0, []Expr{col(0)}, true},
		{"over with other build sides", 64 << 20, 64<<20 - 1024, []Expr{col(0)}, true},
		{"no keys never over", 1024, 0, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ec := &EvalContext{Mem: mem, MemoryLimit: tc.limit}
			ctx := context.Background()
			right := joinSource(mem, 2500, 600, 300, 2, true)
			held, est, over, err := CollectJoinBuild(ctx, ec, right, tc.keys, tc.used)
			if err != nil {
				t.Fatal(err)
			}
			if over != tc.wantOver {
				t.Fatalf("over = %v, want %v", over, tc.wantOver)
			}
			var rows int64
			for _, b := range held {
				rows += b.NumRows()
			}
			if est <= 0 || (!over && rows != 2500) || (over && rows >= 2500) {
				t.Fatalf("%d rows held, estimate %d", rows, est)
			}
			if over || tc.keys == nil {
				ReleaseAll(held)
				right.Close()
				return
			}
			jb, err := NewJoinBuildFrom(ctx, ec, right, tc.keys, false, held)
			if err != nil {
				t.Fatal(err)
			}
			defer jb.Close()
			c := joinCase{typ: JoinInner}
			shared := c.join(ec, joinSource(mem, 3000, 700, 500, 1, true), nil)
			shared.Right, shared.Shared = nil, jb
			got, _, _ := runJoin(t, shared)
			want, _, _ := runJoin(t, c.join(ec, joinSource(mem, 3000, 700, 500, 1, true), joinSource(mem, 2500, 600, 300, 2, true)))
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Fatalf("shared build: %d rows, own build: %d", len(got), len(want))
			}
		})
	}
}
