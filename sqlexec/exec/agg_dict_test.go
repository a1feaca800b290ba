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

var dictStringType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

var dictKeySchema = arrow.NewSchema([]arrow.Field{{Name: "s", Type: dictStringType, Nullable: true}}, nil)

// asDictionaries re-encodes string key batches the ways a scan hands
// them over: runs of batches sharing one dictionary (a column chunk's:
// shuffled, with unused entries, and a NULL entry some NULL keys index
// instead of being NULL themselves), identity dictionaries (duplicates
// and NULL entries), and plain string batches between them.
func asDictionaries(t *testing.T, mem memory.Allocator, bs []arrow.RecordBatch, seed uint64) []arrow.RecordBatch {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	var out []arrow.RecordBatch
	for start := 0; start < len(bs); start += 4 {
		run := bs[start:min(start+4, len(bs))]
		mode := rng.IntN(4)
		// the run's dictionary: its distinct values, shuffled, a NULL
		// entry and some values no row uses
		var vals []string
		seen := map[string]bool{}
		for _, b := range run {
			s := b.Column(0).(*array.String)
			for i := range s.Len() {
				if s.IsValid(i) && !seen[s.Value(i)] {
					seen[s.Value(i)] = true
					vals = append(vals, s.Value(i))
				}
			}
		}
		vals = append(vals, "unused one", "unused two")
		rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		nullAt := rng.IntN(len(vals) + 1)
		db := array.NewStringBuilder(mem)
		pos := map[string]int32{}
		for i := range len(vals) + 1 {
			switch {
			case i == nullAt:
				db.AppendNull()
			case i < nullAt:
				pos[vals[i]] = int32(i)
				db.Append(vals[i])
			default:
				pos[vals[i-1]] = int32(i)
				db.Append(vals[i-1])
			}
		}
		dict := db.NewArray()
		db.Release()
		for bi, b := range run {
			s := b.Column(0).(*array.String)
			var col arrow.Array
			switch {
			case mode == 0 && bi%2 == 1:
				out = append(out, array.NewRecordBatch(strKeySchema, []arrow.Array{s}, b.NumRows()))
				continue
			case mode == 1: // identity
				ib := array.NewInt32Builder(mem)
				for i := range s.Len() {
					if s.IsNull(i) && i%2 == 0 {
						ib.AppendNull()
					} else {
						ib.Append(int32(i)) // odd NULL rows index a NULL entry
					}
				}
				idx := ib.NewArray()
				ib.Release()
				col = array.NewDictionaryArray(dictStringType, idx, s)
				idx.Release()
			default:
				ib := array.NewInt32Builder(mem)
				for i := range s.Len() {
					switch {
					case s.IsValid(i):
						ib.Append(pos[s.Value(i)])
					case i%3 == 0:
						ib.Append(int32(nullAt))
					default:
						ib.AppendNull()
					}
				}
				idx := ib.NewArray()
				ib.Release()
				col = array.NewDictionaryArray(dictStringType, idx, dict)
				idx.Release()
			}
			out = append(out, array.NewRecordBatch(dictKeySchema, []arrow.Array{col}, b.NumRows()))
			col.Release()
		}
		dict.Release()
	}
	return out
}

// Dictionary-encoded keys group exactly like their strings (the same
// groups in the same first-appearance order), serially, in parallel and
// when spilling under a tiny memory limit (where the table decodes).
func TestGroupByDictionaryMatchesStrings(t *testing.T) {
	for _, distinct := range []int{3, 40, 3000} {
		t.Run(fmt.Sprintf("distinct=%d", distinct), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			plain, keys := strKeyBatches(mem, 40000, distinct, uint64(distinct)+11)
			bs := asDictionaries(t, mem, plain, uint64(distinct))
			ReleaseAll(plain)
			defer ReleaseAll(bs)
			want := wantStrCounts(keys)
			key := typedCol{0, arrow.BinaryTypes.String}
			in := func(parts int) []RecordIterator {
				its := make([]RecordIterator, parts)
				for i := range its {
					var mine []arrow.RecordBatch
					for j, b := range bs {
						if j%parts == i {
							b.Retain()
							mine = append(mine, b)
						}
					}
					its[i] = &Values{Out: strKeySchema, Batches: mine}
				}
				return its
			}
			run := func(op RecordIterator) []string {
				res, err := Collect(ctx, op)
				if err != nil {
					t.Fatal(err)
				}
				defer ReleaseAll(res)
				return gotStrCounts(t, res)
			}
			serial := run(&HashAggregate{Input: in(1)[0], Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: &EvalContext{Mem: mem}})
			if !slices.Equal(serial, want) {
				t.Fatalf("serial: %d groups, want %d; first %v, want %v", len(serial), len(want), head(serial), head(want))
			}
			slices.Sort(want)
			par := run(&ParallelAggregate{Inputs: in(2), Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: &EvalContext{Mem: mem}})
			slices.Sort(par)
			if !slices.Equal(par, want) {
				t.Fatalf("parallel: %d groups, want %d; first %v, want %v", len(par), len(want), head(par), head(want))
			}
			for _, workers := range []int{1, 2} {
				dir := t.TempDir()
				ec := &EvalContext{Mem: mem, MemoryLimit: 8 << 10, SpillDir: dir}
				before := AggregateSpillFiles()
				var op RecordIterator
				if workers == 1 {
					op = &HashAggregate{Input: in(1)[0], Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: ec}
				} else {
					op = &ParallelAggregate{Inputs: in(workers), Groups: []Expr{key}, Aggs: countStarOnly, Out: strCountOut, EC: ec}
				}
				got := run(op)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("spilled, %d workers: %d groups, want %d; first %v, want %v", workers, len(got), len(want), head(got), head(want))
				}
				if distinct > 100 && AggregateSpillFiles() == before {
					t.Fatal("nothing spilled; the test proves nothing")
				}
			}
		})
	}
}

// A dictionary key with a second group column, or an index outside its
// dictionary, takes the general path over decoded values.
func TestGroupByDictionaryGeneralPath(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	db := array.NewStringBuilder(mem)
	db.AppendValues([]string{"a", "", "b"}, nil)
	dict := db.NewArray()
	db.Release()
	defer dict.Release()
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{0, 1, 2, 0, 7, 1}, nil)
	idx := ib.NewArray()
	ib.Release()
	defer idx.Release()
	col := array.NewDictionaryArray(dictStringType, idx, dict)
	defer col.Release()
	b := array.NewRecordBatch(dictKeySchema, []arrow.Array{col}, 6)
	defer b.Release()
	key := typedCol{0, arrow.BinaryTypes.String}
	for _, groups := range [][]Expr{{key}, {key, key}} {
		fields := []arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}
		if len(groups) == 2 {
			fields = append(fields, fields[0])
		}
		out := arrow.NewSchema(append(fields, arrow.Field{Name: "c", Type: arrow.PrimitiveTypes.Int64}), nil)
		b.Retain()
		res, err := Collect(context.Background(), &HashAggregate{Input: &Values{Out: strKeySchema, Batches: []arrow.RecordBatch{b}},
			Groups: groups, Aggs: countStarOnly, Out: out, EC: &EvalContext{Mem: mem}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res {
			k, c := r.Column(0).(*array.String), r.Column(len(groups)).(*array.Int64)
			for i := range int(r.NumRows()) {
				got = append(got, fmt.Sprintf("%q/%v=%d", k.Value(i), k.IsValid(i), c.Value(i)))
			}
		}
		ReleaseAll(res)
		want := []string{`"a"/true=2`, `""/true=2`, `"b"/true=1`, `""/false=1`}
		if !slices.Equal(got, want) {
			t.Fatalf("%d groups: got %v, want %v", len(groups), got, want)
		}
	}
}

// A join build's column held as a dictionary gathers (with -1 for an
// unmatched row) the values its strings gather.
func TestDictionaryEncodeGather(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"x", "", "y", "x", "", "z"}, []bool{true, true, false, true, true, true})
	s := b.NewStringArray()
	b.Release()
	defer s.Release()
	d := dictionaryEncode(mem, s)
	defer d.Release()
	if n := d.(*array.Dictionary).Dictionary().Len(); n != 3 {
		t.Fatalf("dictionary of %d values, want 3", n)
	}
	idx := []int32{5, -1, 2, 0, 1, 3, 4, 4}
	plain, _ := gather(mem, s, idx)
	defer plain.Release()
	enc, ok := gather(mem, d, idx)
	if !ok {
		t.Fatal("dictionary not gathered")
	}
	defer enc.Release()
	dec := decodeDictionary(mem, enc)
	defer dec.Release()
	if !array.Equal(plain, dec) {
		t.Fatalf("gathered %v, want %v", dec, plain)
	}
}
