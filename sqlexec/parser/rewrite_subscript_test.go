package parser

import (
	"testing"
)

func TestSubscriptRewrite(t *testing.T) {
	const S = SubscriptMarker
	tests := []rewriteCase{
		{"select m['k'] from t", S + "(`m`,'k')"},
		{"select a[0], b [1] from t", S + "(`a`,0)," + S + "(`b`,1)"},
		{"select m['a'][0] from t", S + "(" + S + "(`m`,'a'),0)"},
		{"select t.s.f['k'] from t", S + "(`t`.`s`.`f`,'k')"},
		{"select s.f['k'] from t", S + "(`s`.`f`,'k')"},
		{"select `m`['k'] from t", S + "(`m`,'k')"},
		{"select map('a', 1)['a']", S + "(map('a',1),'a')"},
		{"select array(1, 2)[1]", S + "(array(1,2),1)"},
		{"select (a)[0] from t", S + "((`a`),0)"},
		{"select x from t where (m)['k'] = 1", "where" + S + "((`m`),'k')=1"},
		{"select a[b[0]] from t", S + "(`a`," + S + "(`b`,0))"},
		{"select a[(select max(i) from u)] from t", S + "(`a`,(select max(`i`)from`u`))"},
		{"select cast(m['k'] as int) from t", "__icesql_cast(" + S + "(`m`,'k'),'int')"},
		{"select m['k'] from t group by m['k'] order by m['k'] nulls last", "orderby" + S + "(`m`,'k'),__icesql_nulls_last()"},
		{"select summary['added-records'] from db.t.snapshots", S + "(`summary`,'added-records')"},
		{"select '[x]' from t", "'[x]'"},
		{"select sa[0].b from t", S + "(" + S + "(`sa`,0),'b')"},
		{"select ss.c[8].d.e[1] from t", S + "(" + S + "(" + S + "(" + S + "(`ss`.`c`,8),'d'),'e'),1)"},
		{"select cardinality(a) from t", "cardinality(`a`)"},
	}
	checkRestoredContains(t, tests)
}

// Errors point at the user's text, not at the rewritten text.
func TestSubscriptErrors(t *testing.T) {
	tests := []errorCase{
		{"select a[0 from t", 9, "[0 from t"},
		{"select a]0 from t", 9, "]0 from t"},
		{"select a[] from t", 10, "] from t"},
		{"select [1, 2]", 8, "[1, 2]"},
		{"select 'x'[0]", 11, "[0]"},
		{"select a[0] + from t", 15, "from t"},
		{"select m['k'] + ) from t", 17, ") from t"},
	}
	checkParseErrors(t, tests)
}

// FuzzSubscripts drives the subscript rewrite with mangled queries:
// parsing must never panic and must be deterministic.
func FuzzSubscripts(f *testing.F) {
	fuzzParseDeterministic(f, []string{
		"select m['k'] from t",
		"select m['a'][0], (x)[1], f(y)[2] from t where a[b[c[0]]] = 1",
		"select a[0 from t",
		"select ][ from t",
		"select [[]] from t",
		"select cast(a[0] as int)[1] from t",
		"select * from a.b.c where x[0] = 1 order by y[1] nulls first",
	})
}
