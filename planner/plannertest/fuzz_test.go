package plannertest

import (
	"testing"
)

// FuzzQuery runs arbitrary SQL text: any outcome but a panic is fine.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		"SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1 ORDER BY 2",
		"SELECT * FROM t x JOIN t y USING (a) WHERE x.b LIKE '%a_'",
		"SELECT (SELECT max(a) FROM t WHERE a < t2.a) FROM t t2",
		"WITH c AS (SELECT a FROM t) SELECT a FROM c UNION SELECT 1",
		"SELECT CAST(b AS DATE), substr(b, -2), a DIV 0 FROM t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		db := NewDB(nil)
		if err := db.Exec("CREATE TABLE t (a INT, b VARCHAR(10))"); err != nil {
			t.Fatal(err)
		}
		if err := db.Exec("INSERT INTO t VALUES (1, 'a'), (NULL, 'bb'), (3, NULL)"); err != nil {
			t.Fatal(err)
		}
		_, _, _ = db.Query(q)
	})
}
