package exec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A spilled join removes its files on Close mid-stream, on an input's
// error and on cancellation, as well as at the end.
func TestHashJoinSpillFilesRemoved(t *testing.T) {
	boom := errors.New("source failed")
	const limit = 32 << 10
	tests := []struct {
		name string
		run  func(t *testing.T, mem memory.Allocator, dir string) error
	}{
		{"close mid-stream", func(t *testing.T, mem memory.Allocator, dir string) error {
			ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}
			j := joinCase{typ: JoinFull}.join(ec, joinSource(mem, 3000, 700, 500, 1, true), joinSource(mem, 2500, 600, 300, 2, true))
			b, err := j.Next(context.Background())
			if err != nil {
				return err
			}
			b.Release()
			if dirEntries(t, dir) == 0 {
				t.Fatal("no spill files while joining")
			}
			j.Close()
			return nil
		}},
		{"build input error", func(t *testing.T, mem memory.Allocator, dir string) error {
			ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}
			right := &failAfter{RecordIterator: joinSource(mem, 1<<20, 600, 300, 2, true), n: 40, err: boom}
			j := joinCase{typ: JoinInner}.join(ec, joinSource(mem, 3000, 700, 500, 1, true), right)
			defer j.Close()
			_, err := j.Next(context.Background())
			if !errors.Is(err, boom) {
				t.Fatalf("got %v, want the input's error", err)
			}
			if j.spill == nil {
				t.Fatal("failed before spilling; the test proves nothing")
			}
			return nil
		}},
		{"probe input error", func(t *testing.T, mem memory.Allocator, dir string) error {
			ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}
			left := &failAfter{RecordIterator: joinSource(mem, 1<<20, 700, 500, 1, true), n: 5, err: boom}
			j := joinCase{typ: JoinLeft}.join(ec, left, joinSource(mem, 2500, 600, 300, 2, true))
			defer j.Close()
			_, err := j.Next(context.Background())
			if !errors.Is(err, boom) {
				t.Fatalf("got %v, want the input's error", err)
			}
			return nil
		}},
		{"cancel while joining partitions", func(t *testing.T, mem memory.Allocator, dir string) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}
			j := joinCase{typ: JoinRight}.join(ec, joinSource(mem, 3000, 700, 500, 1, true), joinSource(mem, 2500, 600, 300, 2, true))
			defer j.Close()
			b, err := j.Next(ctx)
			if err != nil {
				return err
			}
			b.Release()
			cancel()
			if _, err := j.Next(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if n := dirEntries(t, dir); n != 0 {
				t.Fatalf("%d spill files left before Close", n)
			}
			return nil
		}},
		{"spill dir missing", func(t *testing.T, mem memory.Allocator, dir string) error {
			ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: filepath.Join(dir, "absent")}
			j := joinCase{typ: JoinInner}.join(ec, joinSource(mem, 3000, 700, 500, 1, true), joinSource(mem, 2500, 600, 300, 2, true))
			defer j.Close()
			_, err := j.Next(context.Background())
			var se *SpillError
			if !errors.As(err, &se) || !errors.Is(err, ErrSpill) || !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("got %v, want a SpillError for the missing directory", err)
			}
			return nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runSpillCleanupCase(t, tc.run)
		})
	}
}

// A partition file cut short reads back as a SpillError, not as fewer rows.
func TestHashJoinSpillTruncatedPartition(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	ec := &EvalContext{Mem: mem, MemoryLimit: 32 << 10, SpillDir: dir}
	j := joinCase{typ: JoinInner}.join(ec, joinSource(mem, 3000, 700, 500, 1, true), joinSource(mem, 2500, 600, 300, 2, true))
	defer j.Close()
	if err := j.init(context.Background()); err != nil {
		t.Fatal(err)
	}
	if j.spill == nil || len(j.spill.todo) == 0 {
		t.Fatal("nothing spilled")
	}
	for _, p := range j.spill.todo {
		fi, err := os.Stat(p.build.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p.build.path, fi.Size()/2); err != nil {
			t.Fatal(err)
		}
	}
	bs, err := Collect(context.Background(), j)
	ReleaseAll(bs)
	if !errors.Is(err, ErrSpill) {
		t.Fatalf("got %v, want ErrSpill", err)
	}
}
