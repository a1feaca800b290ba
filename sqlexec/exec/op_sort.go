package exec

import (
	"cmp"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// SortKey orders rows by an expression.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort materialises its input in memory and emits it ordered by Keys
// (stable). Spilling to disk is future work.
type Sort struct {
	Input RecordIterator
	Keys  []SortKey
	EC    *EvalContext
	done  bool
}

func (s *Sort) Schema() *arrow.Schema { return s.Input.Schema() }
func (s *Sort) Close()                { s.Input.Close() }

func (s *Sort) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.done {
		return nil, nil
	}
	s.done = true
	var bs []arrow.RecordBatch
	for {
		b, err := s.Input.Next(ctx)
		if err != nil {
			ReleaseAll(bs)
			return nil, err
		}
		if b == nil {
			break
		}
		bs = append(bs, b)
	}
	schema := s.Input.Schema()
	cols, n, err := concatBatches(s.EC, schema, bs)
	ReleaseAll(bs)
	if err != nil {
		return nil, err
	}
	defer ReleaseArrays(cols)
	if n == 0 {
		return nil, nil
	}
	all := array.NewRecordBatch(schema, cols, int64(n))
	defer all.Release()
	keys := make([]arrow.Array, len(s.Keys))
	defer func() { ReleaseArrays(keys) }()
	for i, k := range s.Keys {
		if keys[i], err = k.Expr.Eval(s.EC, all); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmps := make([]func(i, j int) int, len(keys))
	for i, k := range keys {
		cmps[i] = rowComparator(k)
	}
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	// Unstable pdqsort with the row index as the last key: stable, and
	// O(n log n) where SortStableFunc's in-place merge is O(n log² n).
	slices.SortFunc(idx, func(x, y int32) int {
		for ki, k := range s.Keys {
			a, b := keys[ki], keys[ki]
			an, bn := a.IsNull(int(x)), b.IsNull(int(y))
			if an || bn {
				if an && bn {
					continue
				}
				if an == k.NullsFirst {
					return -1
				}
				return 1
			}
			c := cmps[ki](int(x), int(y))
			if c != 0 {
				if k.Desc {
					return -c
				}
				return c
			}
		}
		return cmp.Compare(x, y)
	})
	return TakeBatch(ctx, s.EC, schema, cols, idx)
}

// rowComparator compares two non-null rows of one array.
func rowComparator(a arrow.Array) func(i, j int) int {
	switch x := a.(type) {
	case *array.Int64:
		v := x.Int64Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.Int32:
		v := x.Int32Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.Float64:
		v := x.Float64Values()
		return func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case *array.String:
		return func(i, j int) int { return cmp.Compare(x.Value(i), x.Value(j)) }
	}
	return func(i, j int) int { return CompareValues(ValueAt(a, i), ValueAt(a, j)) }
}
