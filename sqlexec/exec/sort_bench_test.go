package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkSort1M sorts 1M rows (int64, string, int64) by two keys in
// memory and with a budget that forces spilling and a merge.
func BenchmarkSort1M(b *testing.B) {
	for _, bc := range []struct {
		name  string
		limit int64
	}{
		{"in-memory", 0},
		{"spill-8MB-limit", 8 << 20},
		{"spill-1MB-limit", 1 << 20},
	} {
		b.Run(bc.name, func(b *testing.B) {
			mem := memory.NewGoAllocator()
			// the source is regenerated per iteration; its cost is part of both
			for b.Loop() {
				s := &Sort{Input: mixedSource(mem, 1<<20, 4096, 5), Keys: spillKeys["k desc, s asc"],
					EC: &EvalContext{Mem: mem, MemoryLimit: bc.limit, SpillDir: b.TempDir()}}
				for {
					out, err := s.Next(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if out == nil {
						break
					}
					out.Release()
				}
				s.Close()
			}
		})
	}
}
