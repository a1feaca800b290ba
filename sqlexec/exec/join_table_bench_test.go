package exec

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func benchStrings(n, distinct int) arrow.Array {
	b := array.NewStringBuilder(memory.NewGoAllocator())
	defer b.Release()
	for i := range n {
		b.Append(fmt.Sprintf("user-%06d", i*7919%distinct))
	}
	return b.NewArray()
}

// BenchmarkJoinTableProbeString probes 1Mi string keys against a build
// side of 50k and of 500k distinct ones (the shape of bench/'s
// join_country at 1M and 10M rows); the probes touch every build key, so
// the table's memory is the working set, as in the query.
func BenchmarkJoinTableProbeString(b *testing.B) {
	for _, n := range []int{50_000, 500_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			build := benchStrings(n, n)
			jt, _ := newJoinTable([]arrow.Array{build}, build.Len(), false)
			defer jt.release()
			probe := benchStrings(1<<20, n)
			defer probe.Release()
			heads, null := make([]int32, probe.Len()), make([]bool, probe.Len())
			for b.Loop() {
				jt.lookup([]arrow.Array{probe}, false, heads, null, nil)
			}
			b.ReportMetric(float64(b.N*probe.Len())/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkGroupTableStrings assigns groups to 64Ki string keys of few
// and of many distinct values.
func BenchmarkGroupTableStrings(b *testing.B) {
	for _, distinct := range []int{3, 50_000} {
		b.Run(fmt.Sprint(distinct), func(b *testing.B) {
			keys := benchStrings(1<<16, distinct)
			defer keys.Release()
			ids := make([]int32, keys.Len())
			for b.Loop() {
				gt := newGroupTable(1)
				gt.assign([]arrow.Array{keys}, ids, nil, false)
			}
			b.ReportMetric(float64(b.N*keys.Len())/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkGroupTableProbeString assigns 1Mi string keys to a table
// already holding all 500k of their groups: the steady state of a
// 10M-row GROUP BY user_id, where nearly every row finds its group.
func BenchmarkGroupTableProbeString(b *testing.B) {
	for _, n := range []int{50_000, 500_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			all := benchStrings(n, n)
			defer all.Release()
			gt := newGroupTable(1)
			gt.assign([]arrow.Array{all}, make([]int32, n), nil, false)
			probe := benchStrings(1<<20, n)
			defer probe.Release()
			ids := make([]int32, probe.Len())
			for b.Loop() {
				gt.assign([]arrow.Array{probe}, ids, nil, false)
			}
			b.ReportMetric(float64(b.N*probe.Len())/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
