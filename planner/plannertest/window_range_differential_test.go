package plannertest

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// rangeGen builds random window queries with RANGE frames whose bounds
// have offsets, over r(id, p, o, u, v, f): o and f are ORDER BY keys with
// NULLs and ties, u a unique key for first/last_value (whose result
// would otherwise depend on the order among peers). Float values and
// offsets are halves, so every sum is exact in both engines.
type rangeGen struct{ r *rand.Rand }

func (g *rangeGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *rangeGen) offset() string {
	if g.r.IntN(3) == 0 {
		return fmt.Sprintf("%.1f", float64(g.r.IntN(8))/2)
	}
	return fmt.Sprint(g.r.IntN(5))
}

// frame has at least one offset bound and a start no later than its end
// by kind.
func (g *rangeGen) frame() string {
	bounds := []string{"UNBOUNDED PRECEDING", "%s PRECEDING", "CURRENT ROW", "%s FOLLOWING", "UNBOUNDED FOLLOWING"}
	for {
		s := g.r.IntN(4)
		e := max(s, 1) + g.r.IntN(5-max(s, 1))
		if s != 1 && s != 3 && e != 1 && e != 3 {
			continue
		}
		f := func(b string) string {
			if b[0] == '%' {
				return fmt.Sprintf(b, g.offset())
			}
			return b
		}
		return " RANGE BETWEEN " + f(bounds[s]) + " AND " + f(bounds[e])
	}
}

func (g *rangeGen) spec(key string) string {
	s := ""
	if g.r.IntN(2) == 0 {
		s = "PARTITION BY " + g.pick("p", "v % 2") + " "
	}
	return s + "ORDER BY " + key + " " + g.pick("ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST", "DESC NULLS LAST") + g.frame()
}

func (g *rangeGen) call() string {
	if g.r.IntN(4) == 0 {
		return g.pick("first_value(v)", "last_value(f)") + " OVER (" + g.spec("u") + ")"
	}
	fn := g.pick("sum(v)", "count(v)", "count(*)", "avg(f)", "min(v)", "max(f)", "sum(f)", "avg(v)", "max(o)", "min(f)")
	return fn + " OVER (" + g.spec(g.pick("o", "f")) + ")"
}

func (g *rangeGen) query() string {
	q := "SELECT id, " + g.call()
	if g.r.IntN(2) == 0 {
		q += ", " + g.call()
	}
	return q + " FROM r ORDER BY id"
}

func TestWindowRangeDifferentialSQLite(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	val := func(k int, half bool) string {
		if r.IntN(6) == 0 {
			return "NULL"
		}
		if half {
			return fmt.Sprintf("%.1f", float64(r.IntN(2*k)-k)/2)
		}
		return fmt.Sprint(r.IntN(k))
	}
	const rows = 60
	setup := []string{"CREATE TABLE r (id BIGINT, p BIGINT, o BIGINT, u BIGINT, v BIGINT, f DOUBLE)"}
	for i := 0; i < rows; i++ {
		u := (i*37)%rows - rows/2 // unique, spread across the sign
		setup = append(setup, fmt.Sprintf("INSERT INTO r VALUES (%d, %s, %s, %d, %s, %s)",
			i, val(3, false), val(15, false), u, val(20, false), val(8, true)))
	}
	d := newDifferential(t, setup)
	g := &rangeGen{r: rand.New(rand.NewPCG(13, 14))}
	d.compareMany(400, 60, g.query, func(q string, want [][]string) {
		if len(want) != rows {
			t.Fatalf("%s: sqlite returned %d rows", q, len(want))
		}
	})
	d.close()
}
