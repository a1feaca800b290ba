package plannertest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// windowGen builds random window queries over w(id, p, o, v, f) that
// both engines must answer identically: functions whose result depends
// on the order among peers get id as a final order key.
type windowGen struct{ r *rand.Rand }

func (g *windowGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *windowGen) frame() string {
	if g.r.IntN(4) == 0 {
		return ""
	}
	if g.r.IntN(3) == 0 {
		return " RANGE BETWEEN " + g.pick("UNBOUNDED PRECEDING", "CURRENT ROW") + " AND " + g.pick("CURRENT ROW", "UNBOUNDED FOLLOWING")
	}
	bounds := []string{"UNBOUNDED PRECEDING", "%d PRECEDING", "CURRENT ROW", "%d FOLLOWING", "UNBOUNDED FOLLOWING"}
	s := g.r.IntN(4)
	e := s + g.r.IntN(5-s)
	if e == 0 {
		e = 1
	}
	f := func(b string) string {
		if b[0] == '%' {
			return fmt.Sprintf(b, g.r.IntN(4))
		}
		return b
	}
	return " ROWS BETWEEN " + f(bounds[s]) + " AND " + f(bounds[e])
}

func (g *windowGen) spec(tieBreak bool) string {
	s := ""
	if g.r.IntN(3) > 0 {
		s += "PARTITION BY " + g.pick("p", "p, o", "v % 3")
	}
	if g.r.IntN(5) > 0 || tieBreak {
		s += " ORDER BY " + g.pick("o", "o DESC", "v, o", "p DESC, v")
		if tieBreak {
			s += ", id"
		}
	}
	return s
}

func (g *windowGen) call() string {
	switch g.r.IntN(4) {
	case 0:
		return g.pick("rank()", "dense_rank()", "percent_rank()", "cume_dist()") + " OVER (" + g.spec(false) + ")"
	case 1:
		fn := g.pick("row_number()", "ntile(3)", "lag(v)", "lead(v, 2)", "lag(f, 1, -1)", "lead(o, 0)")
		return fn + " OVER (" + g.spec(true) + ")"
	case 2:
		fn := g.pick("first_value(v)", "last_value(f)")
		return fn + " OVER (" + g.spec(true) + g.frame() + ")"
	}
	fn := g.pick("sum(v)", "count(v)", "count(*)", "avg(f)", "min(v)", "max(f)", "sum(f)", "avg(v)")
	sp := g.spec(g.r.IntN(2) == 0)
	fr := ""
	if strings.Contains(sp, "ORDER BY") {
		fr = g.frame()
	}
	// ROWS frames depend on the order among peers.
	if strings.HasPrefix(fr, " ROWS") && !strings.HasSuffix(sp, ", id") {
		sp += ", id"
	}
	return fn + " OVER (" + sp + fr + ")"
}

func (g *windowGen) query() string {
	q := "SELECT id, " + g.call()
	if g.r.IntN(2) == 0 {
		q += ", " + g.call()
	}
	return q + " FROM w ORDER BY id"
}

func TestWindowDifferentialSQLite(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	val := func(k int, half bool) string {
		if r.IntN(6) == 0 {
			return "NULL"
		}
		if half {
			return fmt.Sprintf("%.1f", float64(r.IntN(2*k))/2)
		}
		return fmt.Sprint(r.IntN(k))
	}
	setup := []string{"CREATE TABLE w (id BIGINT, p BIGINT, o BIGINT, v BIGINT, f DOUBLE)"}
	for i := 0; i < 60; i++ {
		setup = append(setup, fmt.Sprintf("INSERT INTO w VALUES (%d, %s, %s, %s, %s)", i, val(3, false), val(6, false), val(20, false), val(10, true)))
	}
	d := newDifferential(t, setup)
	g := &windowGen{r: rand.New(rand.NewPCG(7, 8))}
	d.compareMany(400, 60, g.query, func(q string, want [][]string) {
		if len(want) != 60 {
			t.Fatalf("%s: sqlite returned %d rows", q, len(want))
		}
	})
	d.close()
}
