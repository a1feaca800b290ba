package parser

import (
	"testing"
)

// FuzzRewriteJoinNulls drives the extension rewrite (FULL [OUTER] JOIN,
// NULLS FIRST/LAST, multi-part names) with mangled queries: parsing must
// never panic and must be deterministic.
func FuzzRewriteJoinNulls(f *testing.F) {
	fuzzParseDeterministic(f, []string{
		"select * from a full join b on a.x = b.x",
		"select * from a full outer join b using (x) full join c on c.y = b.y",
		"select x from a order by x nulls first, y desc nulls last",
		"select (select max(x) from b order by x nulls last limit 1) from a order by 1 nulls first",
		"select nulls first from a",
		"select * from cat.ns.t full join (select 1 x) s on true order by x nulls",
		"select * from a full join",
		"select * from a full outer",
		"order by nulls first",
		"select * from (a full join b on (a.x = b.x)) order by (x) nulls last",
		"select * from a straight_join b",
		"select x from t union all select y from u order by 1 nulls first limit 1",
	})
}
