package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// joinInSch is a join input: a nullable key, a row id and a string.
var joinInSch = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

var joinPairSch = arrow.NewSchema(append(slices.Clone(joinInSch.Fields()), joinInSch.Fields()...), nil)

// joinSource streams n rows with keys in [0, distinct) (key 0 is NULL
// when nulls is set) in batches of size rows; key(r) overrides the key.
func joinSource(mem memory.Allocator, n, distinct, size int, seed uint64, nulls bool) RecordIterator {
	rng := rand.New(rand.NewPCG(seed, 3))
	done := 0
	return &funcSource{schema: joinInSch, next: func() arrow.RecordBatch {
		if done >= n {
			return nil
		}
		kb, ib, sb := array.NewInt64Builder(mem), array.NewInt64Builder(mem), array.NewStringBuilder(mem)
		defer kb.Release()
		defer ib.Release()
		defer sb.Release()
		for i := 0; i < size && done < n; i++ {
			k := rng.IntN(distinct)
			if k == 0 && nulls {
				kb.AppendNull()
			} else {
				kb.Append(int64(k))
			}
			ib.Append(int64(done))
			sb.Append(fmt.Sprintf("row-%d-%d", k, done))
			done++
		}
		cols := []arrow.Array{kb.NewArray(), ib.NewArray(), sb.NewArray()}
		defer ReleaseArrays(cols)
		return array.NewRecordBatch(joinInSch, cols, int64(cols[0].Len()))
	}}
}

// idsCoprime is the residual (left.i + right.i) % 3 != 0 over a pair row.
type idsCoprime struct{}

func (idsCoprime) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (idsCoprime) Eval(ec *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
	l, r := b.Column(1).(*array.Int64), b.Column(4).(*array.Int64)
	bb := array.NewBooleanBuilder(ec.Mem)
	defer bb.Release()
	for i := range int(b.NumRows()) {
		bb.Append((l.Value(i)+r.Value(i))%3 != 0)
	}
	return bb.NewArray(), nil
}

type joinCase struct {
	typ        JoinType
	nullAware  bool
	nullsEqual bool
	residual   bool
}

func (c joinCase) String() string {
	return fmt.Sprintf("%s-nullaware=%v-nullsequal=%v-residual=%v", c.typ, c.nullAware, c.nullsEqual, c.residual)
}

func (c joinCase) join(ec *EvalContext, left, right RecordIterator) *HashJoin {
	out := joinPairSch
	if c.typ == JoinSemi || c.typ == JoinAnti {
		out = joinInSch
	}
	j := &HashJoin{Left: left, Right: right, LeftKeys: []Expr{col(0)}, RightKeys: []Expr{col(0)},
		Type: c.typ, NullAware: c.nullAware, NullsEqual: c.nullsEqual, Out: out, EC: ec, BatchRows: 1000}
	if c.residual {
		j.Residual = idsCoprime{}
	}
	return j
}

// runJoin collects the join's rows, sorted, and reports how it spilled.
func runJoin(t *testing.T, j *HashJoin) (rows []string, joined, repartitioned int) {
	t.Helper()
	defer j.Close()
	bs, err := Collect(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	defer ReleaseAll(bs)
	if j.spill != nil {
		joined, repartitioned = j.spill.joined, j.spill.repartitioned
	}
	return sortedRows(t, bs), joined, repartitioned
}

func allJoinCases() []joinCase {
	var cases []joinCase
	for _, typ := range []JoinType{JoinInner, JoinLeft, JoinRight, JoinFull, JoinSemi, JoinAnti} {
		for _, res := range []bool{false, true} {
			cases = append(cases, joinCase{typ: typ, residual: res})
		}
	}
	return append(cases, joinCase{typ: JoinAnti, nullAware: true}, joinCase{typ: JoinInner, nullsEqual: true},
		joinCase{typ: JoinFull, nullsEqual: true, residual: true})
}

// Every join type returns the in-memory rows when its build side
// spills, once partitioned and when partitions are split again.
func TestHashJoinSpillMatchesInMemory(t *testing.T) {
	limits := []struct {
		name    string
		limit   int64
		repart  bool
		nullsIn bool
		cases   []joinCase
	}{
		{"one level", 128 << 10, false, true, allJoinCases()},
		{"re-partitioned", 20 << 10, true, true, []joinCase{{typ: JoinInner}, {typ: JoinFull, residual: true},
			{typ: JoinRight}, {typ: JoinAnti, residual: true}, {typ: JoinSemi}}},
		{"no NULL keys", 64 << 10, false, false, []joinCase{{typ: JoinAnti, nullAware: true}, {typ: JoinLeft}}},
	}
	for _, lim := range limits {
		for _, c := range lim.cases {
			t.Run(lim.name+"/"+c.String(), func(t *testing.T) {
				t.Parallel()
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				dir := t.TempDir()
				mk := func(limit int64) *HashJoin {
					ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}
					// the left side's NULLs are present even when the right's are not
					return c.join(ec, joinSource(mem, 3000, 700, 500, 1, true), joinSource(mem, 2500, 600, 300, 2, lim.nullsIn))
				}
				want, _, _ := runJoin(t, mk(0))
				got, joined, repart := runJoin(t, mk(lim.limit))
				if joined < 2 && !(c.nullAware && lim.nullsIn) {
					t.Fatalf("%d partitions joined: the build side did not spill", joined)
				}
				if lim.repart && repart == 0 && !(c.nullAware && lim.nullsIn) {
					t.Fatal("no partition was split again")
				}
				if len(want) == 0 && !(c.nullAware && lim.nullsIn) {
					t.Fatal("the in-memory join returned nothing; the test proves little")
				}
				if !slices.Equal(got, want) {
					t.Fatalf("spilled: %d rows, in memory: %d rows", len(got), len(want))
				}
				if n := dirEntries(t, dir); n != 0 {
					t.Fatalf("%d spill files left", n)
				}
			})
		}
	}
}

// A partition of one key cannot be split: it is joined in memory after
// one failed split, still giving the in-memory rows.
func TestHashJoinSpillOneGiantKey(t *testing.T) {
	for _, typ := range []JoinType{JoinInner, JoinLeft, JoinRight, JoinFull, JoinSemi, JoinAnti} {
		t.Run(typ.String(), func(t *testing.T) {
			t.Parallel()
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			dir := t.TempDir()
			mk := func(limit int64) *HashJoin {
				ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: dir}
				// 1500 build rows of keys 0 and 1 only
				return joinCase{typ: typ}.join(ec, joinSource(mem, 60, 3, 20, 5, false), joinSource(mem, 1500, 2, 500, 6, false))
			}
			want, _, _ := runJoin(t, mk(0))
			got, joined, repart := runJoin(t, mk(8<<10))
			if joined == 0 || repart == 0 || repart > 2*maxJoinLevel {
				t.Fatalf("joined %d partitions after %d splits", joined, repart)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("spilled: %d rows, in memory: %d rows", len(got), len(want))
			}
		})
	}
}

// Spilling bounds what a join's Arrow buffers hold at once, where the
// in-memory join holds its whole build side.
func TestHashJoinSpillPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("200k x 200k rows")
	}
	const limit = 1 << 20
	peak := func(limit int64) int {
		checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer checked.AssertSize(t, 0)
		mem := &peakAllocator{Allocator: checked}
		ec := &EvalContext{Mem: mem, MemoryLimit: limit, SpillDir: t.TempDir()}
		j := joinCase{typ: JoinFull}.join(ec, joinSource(mem, 200000, 100000, 4096, 1, true), joinSource(mem, 200000, 100000, 4096, 2, true))
		defer j.Close()
		for {
			b, err := j.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				return mem.Peak()
			}
			b.Release()
		}
	}
	inMemory, spilled := peak(0), peak(limit)
	t.Logf("peak in memory %d bytes, spilled %d bytes", inMemory, spilled)
	if spilled > 4*limit {
		t.Fatalf("spilled join peaked at %d bytes, over 4x the %d-byte limit", spilled, limit)
	}
	if inMemory <= 4*limit {
		t.Fatalf("the in-memory join peaked at only %d bytes; the test proves nothing", inMemory)
	}
}
