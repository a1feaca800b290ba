package parser

import (
	"testing"
)

func TestLateralRewrite(t *testing.T) {
	const L, G = LateralViewMarker, GeneratorAsMarker
	tests := []rewriteCase{
		{"select x from t lateral view explode(arr) e as x", "from`t`join(select" + L + "(0,'e',explode(`arr`),'x'))as`__icesql_lateral`"},
		{"select * from t LATERAL VIEW OUTER posexplode(arr) e AS p, x where p > 0", "(select" + L + "(1,'e',posexplode(`arr`),'p','x'))as`__icesql_lateral`where`p`>0"},
		{"select * from t lateral view explode(m) e", L + "(0,'e',explode(`m`)))"},
		{"select * from t lateral view explode(m) as k, v", L + "(0,'',explode(`m`),'k','v'))"},
		{"select * from t lateral view explode(m) e k, v", L + "(0,'e',explode(`m`),'k','v'))"},
		{"select * from t lateral view explode(m) `my view` as `a b`", L + "(0,'myview',explode(`m`),'ab'))"},
		{"select * from a, b lateral view explode(a.x) e as y", "from((`a`)join`b`)join(select" + L},
		{"select * from t lateral view explode(a) e1 as x lateral view explode(x) e2 as y order by y",
			L + "(0,'e1',explode(`a`),'x'))as`__icesql_lateral`)join(select" + L + "(0,'e2',explode(`x`),'y'))as`__icesql_lateral`orderby`y`"},
		{"select * from t lateral view explode(m['k'][0]) e as x", L + "(0,'e',explode(" + SubscriptMarker + "(" + SubscriptMarker + "(`m`,'k'),0)),'x'))"},
		{"select * from db.ns.t lateral view explode(a) e as x", "join(select" + L + "(0,'e',explode(`a`),'x'))"},
		{"select posexplode(arr) as (p, x) from t", G + "(posexplode(`arr`),'p','x')from`t`"},
		{"select id, explode(m) AS (k, v), 1 from t", G + "(explode(`m`),'k','v'),1"},
		{"select explode(arr) as x from t", "explode(`arr`)as`x`"},
		{"select * from (select x from t lateral view explode(a) e as x) s where x in (select y from u lateral view explode(b) f as y)",
			L + "(0,'f',explode(`b`),'y'))"},
	}
	checkRestoredContains(t, tests)
}

// Errors point at the user's text, not at the rewritten text.
func TestLateralErrors(t *testing.T) {
	tests := []errorCase{
		{"select 1 lateral view explode(a) e as x", 10, "lateral view"},
		{"select 1 from t lateral view e as x", 30, "e as x"},
		{"select 1 from t lateral view explode(a e as x", 37, "(a e as x"},
		{"select 1 from t lateral view explode(a) e as where x", 46, "where x"},
		{"select 1 from t lateral view explode(a) e as x,", 48, ""},
		{"select posexplode(a) as (p, from t", 29, "from t"},
		{"select 1 from t lateral view explode(a +) e as x", 41, ")"},
	}
	checkParseErrors(t, tests)
}

// FuzzLateralViews drives the lateral view rewrite with mangled queries:
// parsing must never panic and must be deterministic.
func FuzzLateralViews(f *testing.F) {
	fuzzParseDeterministic(f, []string{
		"select x from t lateral view explode(arr) e as x",
		"select * from a, b lateral view outer posexplode(a.x) e as p, y lateral view explode(y) f",
		"select posexplode(arr) as (p, x) from t",
		"select 1 from t lateral view explode(a e as x",
		"select * from t lateral view explode(m['k']) `v` as `a`, b where a > 1",
	})
}
