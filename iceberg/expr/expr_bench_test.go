package expr

import (
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func BenchmarkInclusiveMetricsEval(b *testing.B) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	bound, err := Bind(schema, And(GtEq("x", 100), Lt("x", 200)), true)
	if err != nil {
		b.Fatal(err)
	}
	f := fileOf(b, 1, iceberg.LongType{}, int64(150), int64(400))
	ev := NewInclusiveMetricsEvaluator(bound)
	for b.Loop() {
		if _, err := ev.Eval(f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluatorIn(b *testing.B) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	lits := make([]any, 500)
	for i := range lits {
		lits[i] = i * 3
	}
	bound, err := Bind(schema, In("x", lits...), true)
	if err != nil {
		b.Fatal(err)
	}
	ev := NewEvaluator(bound)
	row := func(int) any { return int64(999) }
	for b.Loop() {
		ev.Eval(row)
	}
}
