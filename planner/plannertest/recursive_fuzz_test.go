package plannertest

import (
	"context"
	"testing"
	"time"

	"github.com/icesql/icesql/sqlexec/exec"
)

// FuzzRecursiveCTE runs arbitrary SQL from WITH RECURSIVE seeds: any
// outcome but a panic is fine. A deadline bounds inputs whose recursion
// is slow to reach its limits.
func FuzzRecursiveCTE(f *testing.F) {
	for _, s := range []string{
		"WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT n FROM c",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT e.dst FROM r JOIN e ON e.src = r.n) SELECT n FROM r",
		"WITH RECURSIVE p(n, s) AS (SELECT src, CAST(src AS VARCHAR) FROM e UNION ALL SELECT e.dst, concat(s, '>') FROM p, e WHERE e.src = p.n AND length(s) < 6) SELECT * FROM p",
		"WITH RECURSIVE a AS (SELECT 1 AS x), b(y) AS (SELECT x FROM a UNION SELECT y * 2 FROM b WHERE y < 100) SELECT * FROM b b1 JOIN b b2 ON b1.y = b2.y",
		"WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 3) SELECT (SELECT count(*) FROM c)",
		"WITH RECURSIVE c(n) AS (SELECT NULL UNION SELECT n FROM c LEFT JOIN e ON e.src = c.n) SELECT n FROM c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		db := NewDB(nil)
		defer db.Cat.Close()
		for _, s := range []string{"CREATE TABLE e (src INT, dst INT)", "INSERT INTO e VALUES (1, 2), (2, 3), (3, 1), (NULL, 1), (3, NULL)"} {
			if err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, bs, _ := db.QueryBatches(ctx, q)
		exec.ReleaseAll(bs)
	})
}
