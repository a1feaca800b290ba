package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// typedCol reads column i of any type.
type typedCol struct {
	i  int
	dt arrow.DataType
}

func (c typedCol) DataType() arrow.DataType { return c.dt }
func (c typedCol) Eval(_ *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	a := b.Column(c.i)
	a.Retain()
	return a, nil
}

var mixedSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "seq", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// mixedSource streams n rows of few distinct keys (many ties), NULLs in
// both key columns, and a row number that exposes any instability.
func mixedSource(mem memory.Allocator, n, size int, seed uint64) RecordIterator {
	rng := rand.New(rand.NewPCG(seed, 7))
	done := 0
	return &funcSource{schema: mixedSchema, next: func() arrow.RecordBatch {
		if done >= n {
			return nil
		}
		kb := array.NewInt64Builder(mem)
		sb := array.NewStringBuilder(mem)
		qb := array.NewInt64Builder(mem)
		defer kb.Release()
		defer sb.Release()
		defer qb.Release()
		for i := 0; i < size && done < n; i++ {
			if rng.IntN(10) == 0 {
				kb.AppendNull()
			} else {
				kb.Append(int64(rng.IntN(20)))
			}
			if rng.IntN(7) == 0 {
				sb.AppendNull()
			} else {
				sb.Append(fmt.Sprintf("v%d", rng.IntN(5)))
			}
			qb.Append(int64(done))
			done++
		}
		cols := []arrow.Array{kb.NewArray(), sb.NewArray(), qb.NewArray()}
		defer ReleaseArrays(cols)
		return array.NewRecordBatch(mixedSchema, cols, int64(cols[0].Len()))
	}}
}

var spillKeys = map[string][]SortKey{
	"k asc nulls first": {{Expr: typedCol{0, arrow.PrimitiveTypes.Int64}, NullsFirst: true}},
	"k desc, s asc":     {{Expr: typedCol{0, arrow.PrimitiveTypes.Int64}, Desc: true}, {Expr: typedCol{1, arrow.BinaryTypes.String}}},
	"s desc nulls first, k": {{Expr: typedCol{1, arrow.BinaryTypes.String}, Desc: true, NullsFirst: true},
		{Expr: typedCol{0, arrow.PrimitiveTypes.Int64}}},
}

func dirEntries(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// runSpillCleanupCase runs one case with a checked allocator and a fresh
// spill directory, then checks that no Arrow memory and no spill file is
// left.
func runSpillCleanupCase(t *testing.T, run func(t *testing.T, mem memory.Allocator, dir string) error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	if err := run(t, mem, dir); err != nil {
		t.Fatal(err)
	}
	if n := dirEntries(t, dir); n != 0 {
		t.Fatalf("%d spill files left", n)
	}
}

// Spilled sorts must return exactly what the in-memory sort returns.
func TestSortSpillMatchesInMemory(t *testing.T) {
	const rows = 10000
	for name, keys := range spillKeys {
		for _, limit := range []int64{4 << 10, 32 << 10, 256 << 10} {
			t.Run(fmt.Sprintf("%s/limit=%d", name, limit), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ctx := context.Background()
				want, err := Collect(ctx, &Sort{Input: mixedSource(mem, rows, 500, 3), Keys: keys, EC: &EvalContext{Mem: mem}})
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(want)
				dir := t.TempDir()
				s := &Sort{Input: mixedSource(mem, rows, 500, 3), Keys: keys, EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}}
				got, err := Collect(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(got)
				if s.spills < 2 {
					t.Fatalf("only %d runs spilled; the test does not exercise the merge", s.spills)
				}
				g, w := rowsOf(t, got), rowsOf(t, want)
				if len(g) != rows || fmt.Sprint(g) != fmt.Sprint(w) {
					t.Fatalf("spilled %d rows, in-memory %d; heads %v vs %v", len(g), len(w), head(g), head(w))
				}
				if n := dirEntries(t, dir); n != 0 {
					t.Fatalf("%d spill files left after Close", n)
				}
			})
		}
	}
}

func TestSortSpillFilesRemoved(t *testing.T) {
	keys := spillKeys["k desc, s asc"]
	boom := errors.New("source failed")
	tests := []struct {
		name string
		run  func(t *testing.T, mem memory.Allocator, dir string) error
	}{
		{"close mid-merge", func(t *testing.T, mem memory.Allocator, dir string) error {
			s := &Sort{Input: mixedSource(mem, 20000, 500, 1), Keys: keys, EC: &EvalContext{Mem: mem, MemoryLimit: 16 << 10, SpillDir: dir}}
			b, err := s.Next(context.Background())
			if err != nil {
				return err
			}
			b.Release()
			if dirEntries(t, dir) == 0 {
				t.Fatal("no spill files while merging")
			}
			s.Close()
			return nil
		}},
		{"input error", func(t *testing.T, mem memory.Allocator, dir string) error {
			src := mixedSource(mem, 20000, 500, 1)
			n := 0
			in := &funcSource{schema: mixedSchema, next: func() arrow.RecordBatch {
				n++
				return must(src.Next(context.Background()))
			}}
			s := &Sort{Input: &failAfter{RecordIterator: in, n: 30, err: boom}, Keys: keys, EC: &EvalContext{Mem: mem, MemoryLimit: 16 << 10, SpillDir: dir}}
			_, err := s.Next(context.Background())
			if !errors.Is(err, boom) {
				t.Fatalf("got %v, want the input's error", err)
			}
			if s.spills == 0 {
				t.Fatal("failed before spilling; the test proves nothing")
			}
			return nil
		}},
		{"cancel while reading", func(t *testing.T, mem memory.Allocator, dir string) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			src := mixedSource(mem, 1<<30, 500, 1)
			n := 0
			in := &funcSource{schema: mixedSchema, next: func() arrow.RecordBatch {
				if n++; n == 40 {
					cancel()
				}
				return must(src.Next(context.Background()))
			}}
			s := &Sort{Input: in, Keys: keys, EC: &EvalContext{Mem: mem, MemoryLimit: 16 << 10, SpillDir: dir}}
			_, err := s.Next(ctx)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			return nil
		}},
		{"cancel while merging", func(t *testing.T, mem memory.Allocator, dir string) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := &Sort{Input: mixedSource(mem, 20000, 500, 1), Keys: keys, EC: &EvalContext{Mem: mem, MemoryLimit: 16 << 10, SpillDir: dir}}
			b, err := s.Next(ctx)
			if err != nil {
				return err
			}
			b.Release()
			cancel()
			if _, err := s.Next(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
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

func must(b arrow.RecordBatch, err error) arrow.RecordBatch {
	if err != nil {
		panic(err)
	}
	return b
}

// failAfter returns err instead of its input's n-th batch.
type failAfter struct {
	RecordIterator
	n   int
	err error
}

func (f *failAfter) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if f.n--; f.n <= 0 {
		return nil, f.err
	}
	return f.RecordIterator.Next(ctx)
}

func TestSortSpillPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("1M rows")
	}
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	mem := &peakAllocator{Allocator: checked}
	const limit = 1 << 20
	s := &Sort{Input: mixedSource(mem, 1<<20, 1024, 9), Keys: spillKeys["k desc, s asc"],
		EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir()}}
	defer s.Close()
	var rows int64
	var last int64 = -1 << 62
	for {
		b, err := s.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		k := b.Column(0).(*array.Int64)
		for i := 0; i < k.Len(); i++ {
			v := int64(-1) // NULLs sort last in descending order here
			if k.IsValid(i) {
				v = -k.Value(i) // descending
			} else {
				v = 1 << 62
			}
			if v < last {
				t.Fatalf("row %d out of order", rows+int64(i))
			}
			last = v
		}
		rows += b.NumRows()
		b.Release()
	}
	if rows != 1<<20 {
		t.Fatalf("got %d rows", rows)
	}
	if s.spills < mergeFanIn {
		t.Fatalf("%d runs: the multi-pass merge was not exercised", s.spills)
	}
	if p := mem.Peak(); p > 2*limit {
		t.Fatalf("peak %d bytes for a %d-byte limit", p, limit)
	}
	t.Logf("runs %d, peak %d bytes", s.spills, mem.Peak())
}

// A window over a spilled sort sees the same rows as over an in-memory one.
func TestWindowOverSpilledSort(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64 := arrow.PrimitiveTypes.Int64
	calls := []WindowCall{{Func: WinRowNumber, Out: i64},
		{Func: WinAggregate, Agg: AggSum, Args: []Expr{typedCol{2, i64}}, Frame: DefaultFrame, Out: i64}}
	run := func(limit int64) []string {
		w := &Window{Input: mixedSource(mem, 5000, 300, 4), Partition: []Expr{typedCol{0, i64}},
			Order: []SortKey{{Expr: typedCol{1, arrow.BinaryTypes.String}}}, Calls: calls,
			Out: windowOut(mixedSchema, calls), EC: &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir()}}
		bs, err := Collect(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		defer ReleaseAll(bs)
		return rowsOf(t, bs)
	}
	want, got := run(0), run(8<<10)
	if len(got) != 5000 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("spilled %d rows, in-memory %d; heads %v vs %v", len(got), len(want), head(got), head(want))
	}
}

// A damaged run file is reported as a spill error, not a panic.
func TestSortRunCorrupt(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &EvalContext{Mem: mem}
	dir := t.TempDir()
	good := func() sortedRun {
		files := &spillFiles{dir: dir}
		b := must(mixedSource(mem, 100, 100, 1).Next(context.Background()))
		defer b.Release()
		idx := make([]int32, 100)
		for i := range idx {
			idx[i] = int32(i)
		}
		r, err := writeSortedRun(context.Background(), ec, files, mixedSchema, b.Columns(), idx, 10)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name   string
		damage func(data []byte) []byte
	}{
		{"garbage", func([]byte) []byte { return []byte("not an arrow stream at all") }},
		{"truncated", func(d []byte) []byte { return d[:len(d)/2] }},
		{"empty", func([]byte) []byte { return nil }},
		// a stream cut after its schema parses as an empty stream
		{"schema only", func(d []byte) []byte { return d[:schemaLen(t, d)] }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := good()
			p := run.path
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tc.damage(data), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := openRun(ec, run, mixedSchema, 0)
			for err == nil && c.batch != nil {
				err = c.advance()
			}
			if c != nil {
				c.close()
			}
			var se *SpillError
			if !errors.Is(err, ErrSpill) || !errors.As(err, &se) || se.Path != p {
				t.Fatalf("got %v, want a SpillError for %s", err, p)
			}
		})
	}
}

// schemaLen is the length of the schema message that starts an IPC stream
// (continuation token, metadata length, padded metadata).
func schemaLen(t *testing.T, d []byte) int {
	t.Helper()
	if len(d) < 8 {
		t.Fatal("stream too short")
	}
	return 8 + int(binary.LittleEndian.Uint32(d[4:8]))
}

func TestMemoryConfigContext(t *testing.T) {
	if _, ok := MemoryConfigFrom(context.Background()); ok {
		t.Fatal("a bare context carries a config")
	}
	ctx := WithMemoryConfig(context.Background(), MemoryConfig{Limit: 1 << 20, SpillDir: "spill"})
	if cfg, ok := MemoryConfigFrom(ctx); !ok || cfg.Limit != 1<<20 || cfg.SpillDir != "spill" {
		t.Fatalf("got %+v, %v", cfg, ok)
	}
	if got := (&EvalContext{}).memoryLimit(); got != DefaultMemoryLimit {
		t.Fatalf("default limit %d", got)
	}
}
