package plannertest

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// recursiveGen builds random WITH RECURSIVE queries over a random graph
// e(src, dst, w) whose answers do not depend on the order rows are
// produced in (every query sorts all its output columns).
type recursiveGen struct{ r *rand.Rand }

func (g *recursiveGen) node() int { return g.r.IntN(10) }

func (g *recursiveGen) query() string {
	s, k := g.node(), 1+g.r.IntN(4)
	switch g.r.IntN(8) {
	case 0: // reachability; UNION ends cycles
		return fmt.Sprintf("WITH RECURSIVE r(n) AS (SELECT %d UNION SELECT e.dst FROM r JOIN e ON e.src = r.n) SELECT n FROM r ORDER BY n", s)
	case 1: // bounded walks, every path counted
		return fmt.Sprintf("WITH RECURSIVE w(n, d) AS (SELECT %d, 0 UNION ALL SELECT e.dst, w.d + 1 FROM w JOIN e ON e.src = w.n WHERE w.d < %d) "+
			"SELECT n, d, count(*) FROM w GROUP BY n, d ORDER BY n, d", s, k)
	case 2: // cheapest cost within k steps
		return fmt.Sprintf("WITH RECURSIVE p(n, d, cost) AS (SELECT %d, 0, 0 UNION SELECT e.dst, p.d + 1, p.cost + e.w FROM p, e WHERE e.src = p.n AND p.d < %d AND e.w IS NOT NULL) "+
			"SELECT n, min(cost), max(d) FROM p GROUP BY n ORDER BY n", s, k)
	case 3: // arithmetic series
		return fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT %d UNION ALL SELECT x + %d FROM c WHERE x < %d) SELECT count(*), sum(x), max(x) FROM c",
			g.r.IntN(5), 1+g.r.IntN(3), 10+g.r.IntN(200))
	case 4: // a many-row anchor and a nullable column under UNION
		return fmt.Sprintf("WITH RECURSIVE r(n, tag) AS (SELECT src, CAST(NULL AS BIGINT) FROM e WHERE w > %d UNION SELECT e.dst, e.w %% 3 FROM r JOIN e ON e.src = r.n) "+
			"SELECT n, tag FROM r ORDER BY n, tag", g.r.IntN(10))
	case 5: // the CTE joined with itself by the main query
		return fmt.Sprintf("WITH RECURSIVE r(n) AS (SELECT %d UNION SELECT e.dst FROM r JOIN e ON e.src = r.n) "+
			"SELECT a.n, b.n FROM r a JOIN r b ON a.n < b.n ORDER BY 1, 2", s)
	case 6: // a plain CTE read by the recursive term, a filter above the recursion
		return fmt.Sprintf("WITH RECURSIVE big AS (SELECT src, dst FROM e WHERE w >= %d), r(n, d) AS (SELECT %d, 0 UNION SELECT big.dst, r.d + 1 FROM r JOIN big ON big.src = r.n WHERE r.d < 6) "+
			"SELECT n, min(d) FROM r WHERE n <> %d GROUP BY n ORDER BY n", g.r.IntN(8), s, g.node())
	}
	// LIMIT on the recursive union of a chain (SQLite's row limit)
	return fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x * 2 FROM c LIMIT %d) SELECT x FROM c ORDER BY x", 1+g.r.IntN(20))
}

func TestRecursiveDifferentialSQLite(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	setup := []string{"CREATE TABLE e (src BIGINT, dst BIGINT, w BIGINT)"}
	for i := 0; i < 22; i++ {
		w := fmt.Sprint(r.IntN(10))
		if r.IntN(6) == 0 {
			w = "NULL"
		}
		setup = append(setup, fmt.Sprintf("INSERT INTO e VALUES (%d, %d, %s)", r.IntN(10), r.IntN(10), w))
	}
	d := newDifferential(t, setup)
	g := &recursiveGen{r: rand.New(rand.NewPCG(11, 12))}
	nonEmpty := 0
	n := d.compareMany(200, 40, g.query, func(_ string, want [][]string) {
		if len(want) > 1 {
			nonEmpty++
		}
	})
	// guard against a graph on which every query is trivial
	if nonEmpty < n/2 {
		t.Errorf("only %d of %d queries returned more than one row", nonEmpty, n)
	}
	d.close()
}
