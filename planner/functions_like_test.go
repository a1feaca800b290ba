package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// The batch LIKE gives the row LIKE's answers, for prefix patterns and
// general ones, escapes, multi-byte and invalid UTF-8 values and NULLs.
func TestLikeBatchMatchesRowLike(t *testing.T) {
	values := []string{"", "a", "ab", "abc", "user-12", "user-123", "user-2", "%", "_", "a%b", "a_b", "\\", "a\\", "é", "éa", "aé",
		"\xff", "\xffa", "a\xff", "\uFFFD", "日本語", "abcabc", "xyz"}
	patterns := []string{"", "%", "%%", "a%", "ab%", "user-12%", "user-12%%", "a", "_", "__", "a_", "_b%", "%b", "%b%", "a%c",
		"\\%", "a\\%%", "\\_%", "a\\", "\\", "é%", "_a", "\uFFFD%", "%\uFFFD", "日%", "日_語", "a%b%c", "%abc"}
	for _, escape := range []rune{'\\', '#', 'a'} {
		for _, p := range patterns {
			t.Run(fmt.Sprintf("%c/%q", escape, p), func(t *testing.T) {
				ec := &exec.EvalContext{Mem: memory.DefaultAllocator}
				sb := array.NewStringBuilder(memory.DefaultAllocator)
				pb := array.NewStringBuilder(memory.DefaultAllocator)
				for _, v := range values {
					sb.Append(v)
					pb.Append(p)
				}
				sb.AppendNull()
				pb.Append(p)
				s, pa := sb.NewArray(), pb.NewArray()
				defer s.Release()
				defer pa.Release()
				got, err := likeBatch(escape)(ec, []arrow.Array{s, pa}, s.Len())
				if err != nil {
					t.Fatal(err)
				}
				defer got.Release()
				bs := got.(*array.Boolean)
				for i, v := range values {
					want := likeMatch([]rune(v), []rune(p), escape)
					if bs.IsNull(i) || bs.Value(i) != want {
						t.Errorf("%q LIKE %q: %v, want %v", v, p, exec.ValueAt(got, i), want)
					}
				}
				if !bs.IsNull(len(values)) {
					t.Errorf("NULL LIKE %q is not NULL", p)
				}
			})
		}
	}
}

// Random values and patterns over a small alphabet agree too.
func TestLikeBatchRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "%", "_", "\\", "é", "\xff"}
	gen := func(n int) string {
		s := ""
		for range r.IntN(n) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		return s
	}
	ec := &exec.EvalContext{Mem: memory.DefaultAllocator}
	for range 3000 {
		v, p := gen(7), gen(5)
		sb, pb := array.NewStringBuilder(ec.Mem), array.NewStringBuilder(ec.Mem)
		sb.Append(v)
		pb.Append(p)
		s, pa := sb.NewArray(), pb.NewArray()
		got, err := likeBatch('\\')(ec, []arrow.Array{s, pa}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if want := likeMatch([]rune(v), []rune(p), '\\'); got.(*array.Boolean).Value(0) != want {
			t.Errorf("%q LIKE %q: %v, want %v", v, p, !want, want)
		}
		s.Release()
		pa.Release()
		got.Release()
	}
}

// A prefix LIKE over a batch allocates a fixed few objects, not one or
// more per row.
func TestLikeBatchAllocations(t *testing.T) {
	ec := &exec.EvalContext{Mem: memory.DefaultAllocator}
	sb, pb := array.NewStringBuilder(ec.Mem), array.NewStringBuilder(ec.Mem)
	const rows = 4096
	for i := range rows {
		sb.Append(fmt.Sprintf("user-%06d", i))
		pb.Append("user-0012%")
	}
	s, pa := sb.NewArray(), pb.NewArray()
	defer s.Release()
	defer pa.Release()
	like := &Call{Name: "like", Args: []Expr{&ColumnRef{Index: 0, Name: "u", Type: typeString}, &ColumnRef{Index: 1, Name: "p", Type: typeString}},
		Type: typeBool, NullStrict: true, Fn: likeFunc('\\', false), Batch: likeBatch('\\')}
	rb := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "u", Type: typeString}, {Name: "p", Type: typeString}}, nil), []arrow.Array{s, pa}, rows)
	defer rb.Release()
	matched := 0
	allocs := testing.AllocsPerRun(5, func() {
		out, err := like.Eval(ec, rb)
		if err != nil {
			t.Fatal(err)
		}
		matched = out.Len() - out.NullN()
		for i := range out.Len() {
			if !out.(*array.Boolean).Value(i) {
				matched--
			}
		}
		out.Release()
	})
	if matched != 100 {
		t.Errorf("%d rows match, want 100", matched)
	}
	if allocs > 64 {
		t.Errorf("%.0f allocations for %d rows", allocs, rows)
	}
}
