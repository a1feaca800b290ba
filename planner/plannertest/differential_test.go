package plannertest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// queryGen builds random queries over t1(a, b, s) and t2(a, c) from a
// grammar both engines agree on (no division, no float output).
type queryGen struct{ r *rand.Rand }

func (g *queryGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *queryGen) pred(cols []string) string {
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprintf("%s %s %d", g.pick(cols...), g.pick("=", "<>", "<", "<=", ">", ">="), g.r.IntN(10))
	case 1:
		return fmt.Sprintf("%s IS %sNULL", g.pick(cols...), g.pick("", "NOT "))
	case 2:
		return fmt.Sprintf("%s IN (%d, %d, %s)", g.pick(cols...), g.r.IntN(10), g.r.IntN(10), g.pick("3", "NULL"))
	case 3:
		return fmt.Sprintf("%s BETWEEN %d AND %d", g.pick(cols...), g.r.IntN(5), 3+g.r.IntN(7))
	case 4:
		return fmt.Sprintf("(%s OR %s)", g.pred(cols), g.pred(cols))
	}
	return fmt.Sprintf("NOT (%s)", g.pred(cols))
}

func (g *queryGen) query() string {
	join := g.r.IntN(3)
	cols := []string{"t1.a", "t1.b"}
	from := "t1"
	switch join {
	case 1:
		from = "t1 JOIN t2 ON t1.a = t2.a"
		cols = append(cols, "t2.c")
	case 2:
		from = "t1 LEFT JOIN t2 ON t1.a = t2.a"
		cols = append(cols, "t2.c")
	}
	where := ""
	if g.r.IntN(3) > 0 {
		where = " WHERE " + g.pred(cols)
		if g.r.IntN(2) == 0 {
			where += " AND " + g.pred(cols)
		}
	}
	if g.r.IntN(2) == 0 {
		key := g.pick(cols...)
		agg := g.pick("count(*)", "count(%s)", "sum(%s)", "min(%s)", "max(%s)", "count(DISTINCT %s)")
		if strings.Contains(agg, "%s") {
			agg = fmt.Sprintf(agg, g.pick(cols...))
		}
		having := ""
		if g.r.IntN(3) == 0 {
			having = fmt.Sprintf(" HAVING count(*) > %d", g.r.IntN(3))
		}
		return fmt.Sprintf("SELECT %s, %s FROM %s%s GROUP BY %s%s ORDER BY 1, 2", key, agg, from, where, key, having)
	}
	sel := slices.Clone(cols)
	expr := fmt.Sprintf("%s + %s * 2", g.pick(cols...), g.pick(cols...))
	sel = append(sel, expr, fmt.Sprintf("CASE WHEN %s THEN 1 ELSE 0 END", g.pred(cols)))
	order := make([]string, len(sel))
	for i := range order {
		order[i] = fmt.Sprintf("%d %s", i+1, g.pick("ASC", "DESC"))
	}
	distinct := g.pick("", "DISTINCT ")
	q := fmt.Sprintf("SELECT %s%s FROM %s%s ORDER BY %s", distinct, strings.Join(sel, ", "), from, where, strings.Join(order, ", "))
	if g.r.IntN(3) == 0 {
		q += fmt.Sprintf(" LIMIT %d", g.r.IntN(8))
	}
	return q
}

func TestDifferentialSQLite(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	val := func() string {
		if r.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprint(r.IntN(10))
	}
	setup := []string{"CREATE TABLE t1 (a BIGINT, b BIGINT)", "CREATE TABLE t2 (a BIGINT, c BIGINT)"}
	for i := 0; i < 40; i++ {
		setup = append(setup, fmt.Sprintf("INSERT INTO t1 VALUES (%s, %s)", val(), val()))
		if i%2 == 0 {
			setup = append(setup, fmt.Sprintf("INSERT INTO t2 VALUES (%s, %s)", val(), val()))
		}
	}
	d := newDifferential(t, setup)
	g := &queryGen{r: rand.New(rand.NewPCG(3, 4))}
	nonEmpty := 0
	n := d.compareMany(300, 50, g.query, func(_ string, want [][]string) {
		if len(want) > 0 {
			nonEmpty++
		}
	})
	// guard against a generator whose queries all return nothing
	if nonEmpty < n/2 {
		t.Errorf("only %d of %d queries returned rows", nonEmpty, n)
	}
	t.Logf("%d queries, %d with rows", n, nonEmpty)
	d.close()
}
