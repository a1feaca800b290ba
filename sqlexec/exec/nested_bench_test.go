package exec

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkMapLookupRows measures a row-wise map lookup (m['k5']) over
// 4096 maps of 10 entries, the path subscripts take.
func BenchmarkMapLookupRows(b *testing.B) {
	mem := memory.NewGoAllocator()
	typ := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	bld := array.NewBuilder(mem, typ)
	for i := 0; i < 4096; i++ {
		m := MapValue{}
		for k := 0; k < 10; k++ {
			m.Keys, m.Values = append(m.Keys, "k"+strconv.Itoa(k)), append(m.Values, int64(i*k))
		}
		if err := AppendNested(bld, m); err != nil {
			b.Fatal(err)
		}
	}
	maps := bld.NewArray()
	bld.Release()
	defer maps.Release()
	ec := &EvalContext{Mem: mem}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := MapNestedRows(ec, arrow.PrimitiveTypes.Int64, maps.Len(), []arrow.Array{maps}, func(v []any) (any, error) {
			m := v[0].(MapValue)
			for j, k := range m.Keys {
				if k == "k5" {
					return m.Values[j], nil
				}
			}
			return nil, nil
		})
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}
