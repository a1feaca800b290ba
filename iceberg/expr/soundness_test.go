package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// randomPredicate builds a predicate on col with literals from lit.
func randomPredicate(r *rand.Rand, col string, lit func() any) Expr {
	switch r.IntN(12) {
	case 0:
		return IsNull(col)
	case 1:
		return NotNull(col)
	case 2:
		return Lt(col, lit())
	case 3:
		return LtEq(col, lit())
	case 4:
		return Gt(col, lit())
	case 5:
		return GtEq(col, lit())
	case 6:
		return Eq(col, lit())
	case 7:
		return NotEq(col, lit())
	case 8:
		return In(col, lit(), lit(), lit())
	case 9:
		return NotIn(col, lit(), lit())
	case 10:
		return Not(And(Gt(col, lit()), Lt(col, lit())))
	}
	return Or(Eq(col, lit()), Lt(col, lit()))
}

// TestMetricsSoundness: the inclusive evaluator never rules out a file with
// a matching row, and the strict one never claims a file whose rows do not
// all match.
func TestMetricsSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	lit := func() any { return int64(r.IntN(40)) }
	for i := range 3000 {
		vals := make([]any, 1+r.IntN(4))
		for j := range vals {
			if r.IntN(5) == 0 {
				vals[j] = nil
			} else {
				vals[j] = lit()
			}
		}
		e := randomPredicate(r, "x", lit)
		b, err := Bind(schema, e, true)
		if err != nil {
			t.Fatal(err)
		}
		f := fileOf(t, 1, iceberg.LongType{}, vals...)
		ev := NewEvaluator(b)
		some, all := false, true
		for _, v := range vals {
			m := ev.Eval(func(int) any { return v })
			some = some || m
			all = all && m
		}
		might, err := NewInclusiveMetricsEvaluator(b).Eval(f)
		if err != nil {
			t.Fatal(err)
		}
		must, err := NewStrictMetricsEvaluator(b).Eval(f)
		if err != nil {
			t.Fatal(err)
		}
		if some && !might {
			t.Fatalf("case %d: %s on %v: inclusive pruned a matching file", i, b, vals)
		}
		if must && !all {
			t.Fatalf("case %d: %s on %v: strict claimed all rows match", i, b, vals)
		}
	}
}

// TestProjectionSoundness: for each transform, a row matching the filter
// has a partition value matching the inclusive projection, and a partition
// value matching the strict projection means the row matches.
func TestProjectionSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const hourMicros = int64(3_600_000_000)
	tsLit := func() any {
		// around the epoch so pre-1970 values are exercised
		return iceberg.Timestamp((r.Int64N(24*90) - 24*45) * hourMicros / 2)
	}
	strLit := func() any {
		const letters = "ab"
		n := r.IntN(5)
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	intLit := func() any { return int64(r.IntN(80) - 40) }
	type column struct {
		name string
		typ  iceberg.Type
		lit  func() any
		tfs  []iceberg.Transform
	}
	cols := []column{
		{"ts", iceberg.TimestampType{}, tsLit, []iceberg.Transform{iceberg.DayTransform{}, iceberg.HourTransform{}, iceberg.MonthTransform{}, iceberg.YearTransform{}, iceberg.IdentityTransform{}, iceberg.BucketTransform{N: 4}}},
		{"s", iceberg.StringType{}, strLit, []iceberg.Transform{iceberg.TruncateTransform{W: 2}, iceberg.IdentityTransform{}, iceberg.BucketTransform{N: 3}}},
		{"n", iceberg.LongType{}, intLit, []iceberg.Transform{iceberg.TruncateTransform{W: 10}, iceberg.BucketTransform{N: 5}}},
	}
	for _, c := range cols {
		schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: c.name, Type: c.typ})
		for _, tf := range c.tfs {
			spec := &iceberg.PartitionSpec{ID: 1, Fields: []iceberg.PartitionField{{SourceID: 1, FieldID: 1000, Name: "p", Transform: tf}}}
			t.Run(c.name+"/"+tf.String(), func(t *testing.T) {
				for i := range 2000 {
					var e Expr
					if c.name == "s" && r.IntN(3) == 0 {
						if r.IntN(2) == 0 {
							e = StartsWith("s", strLit().(string))
						} else {
							e = NotStartsWith("s", strLit().(string))
						}
					} else {
						e = randomPredicate(r, c.name, c.lit)
					}
					b, err := Bind(schema, e, true)
					if err != nil {
						t.Fatal(err)
					}
					incl, err := InclusiveProjection(spec, schema, b)
					if err != nil {
						t.Fatal(err)
					}
					strict, _ := StrictProjection(spec, schema, b)
					re, _ := NewResidualEvaluator(spec, schema, b)
					var v any
					if r.IntN(6) > 0 {
						v = c.lit()
					}
					tuple := []any{tf.Apply(v)}
					matches := NewEvaluator(b).Eval(func(int) any { return v })
					inclOK := NewPartitionEvaluator(spec, incl).Eval(tuple)
					strictOK := NewPartitionEvaluator(spec, strict).Eval(tuple)
					if matches && !inclOK {
						t.Fatalf("case %d: %s matches %v but inclusive %s rejects partition %v", i, b, v, incl, tuple)
					}
					if strictOK && !matches {
						t.Fatalf("case %d: %s rejects %v but strict %s accepts partition %v", i, b, v, strict, tuple)
					}
					residual := re.Residual(tuple)
					if got := NewEvaluator(residual).Eval(func(int) any { return v }); got != matches {
						t.Fatalf("case %d: residual %s of %s on %v = %v, want %v", i, residual, b, v, got, matches)
					}
				}
			})
		}
	}
}
