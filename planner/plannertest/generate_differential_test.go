package plannertest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// generatorPair is a query using Spark's generators and a plain query
// SQLite answers the same with (UNION ALL of one SELECT per generated
// column or row, json_extract for json_tuple).
type generatorPair struct{ spark, lite string }

type generatorGen struct{ r *rand.Rand }

func (g *generatorGen) pair() generatorPair {
	c := g.r.IntN(20)
	switch g.r.IntN(5) {
	case 0: // stack as an unpivot of aggregates, after the aggregation
		return generatorPair{
			fmt.Sprintf("SELECT k, stack(2, 'lo', min(v), 'hi', max(v) + %d) AS (stat, val) FROM t GROUP BY k ORDER BY k, stat, val", c),
			fmt.Sprintf("SELECT k, stat, val FROM (SELECT k, 'lo' AS stat, min(v) AS val FROM t GROUP BY k UNION ALL SELECT k, 'hi', max(v) + %d FROM t GROUP BY k) ORDER BY k, stat, val", c),
		}
	case 1: // explode over grouped aggregates, filtered by HAVING
		return generatorPair{
			fmt.Sprintf("SELECT k, explode(array(count(*), sum(v))) AS x FROM t GROUP BY k HAVING count(v) > %d ORDER BY k, x", c%3),
			fmt.Sprintf("SELECT k, x FROM (SELECT k, count(*) AS x FROM t GROUP BY k HAVING count(v) > %[1]d UNION ALL SELECT k, sum(v) FROM t GROUP BY k HAVING count(v) > %[1]d) ORDER BY k, x", c%3),
		}
	case 2: // a lateral view of stack over each row, grouped above it
		return generatorPair{
			fmt.Sprintf("SELECT col0, count(*), sum(col1) FROM t LATERAL VIEW stack(2, k, v, k + %d, v * 2) s GROUP BY col0 ORDER BY col0", c),
			fmt.Sprintf("SELECT a, count(*), sum(b) FROM (SELECT k AS a, v AS b FROM t UNION ALL SELECT k + %d, v * 2 FROM t) GROUP BY a ORDER BY a", c),
		}
	case 3: // posexplode in the select list, filtered by WHERE
		return generatorPair{
			fmt.Sprintf("SELECT k, posexplode(array(v, v - %d)) FROM t WHERE v > %d ORDER BY k, pos, col", c, c),
			fmt.Sprintf("SELECT k, p, x FROM (SELECT k, 0 AS p, v AS x FROM t WHERE v > %[2]d UNION ALL SELECT k, 1, v - %[1]d FROM t WHERE v > %[2]d) ORDER BY k, p, x", c, c),
		}
	}
	keys := []string{"a", "b", "n", "missing"}
	k1, k2 := keys[g.r.IntN(len(keys))], keys[g.r.IntN(len(keys))]
	return generatorPair{
		fmt.Sprintf("SELECT k, c0, c1 FROM t LATERAL VIEW json_tuple(j, '%s', '%s') x ORDER BY k, c0, c1", k1, k2),
		fmt.Sprintf("SELECT k, json_extract(j, '$.%s') AS c0, json_extract(j, '$.%s') AS c1 FROM t ORDER BY k, c0, c1", k1, k2),
	}
}

func TestGeneratorDifferentialSQLite(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	setup := []string{"CREATE TABLE t (k BIGINT, v BIGINT, j VARCHAR(100))"}
	for range 30 {
		v := fmt.Sprint(r.IntN(40))
		if r.IntN(6) == 0 {
			v = "NULL"
		}
		j := fmt.Sprintf(`'{"a": %d, "b": "s%d", "n": {"x": [%d, 2]}}'`, r.IntN(5), r.IntN(5), r.IntN(3))
		setup = append(setup, fmt.Sprintf("INSERT INTO t VALUES (%d, %s, %s)", r.IntN(6), v, j))
	}
	d := newDifferential(t, setup)
	g := &generatorGen{r: rand.New(rand.NewPCG(23, 24))}
	n := 150
	if testing.Short() {
		n = 30
	}
	nonEmpty := 0
	for range n {
		p := g.pair()
		want, err := sqliteRows(d.lite, p.lite)
		if err != nil {
			t.Fatalf("sqlite rejected %s: %v", p.lite, err)
		}
		_, got, err := d.db.Query(p.spark)
		if err != nil {
			t.Errorf("%s: %v", p.spark, err)
			continue
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s\n got  %v\n want %v (%s)", p.spark, got, want, p.lite)
		}
		if len(want) > 1 {
			nonEmpty++
		}
	}
	if nonEmpty < n/2 {
		t.Errorf("only %d of %d queries returned more than one row", nonEmpty, n)
	}
	d.close()
}
