package slt

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

type valueDB struct {
	rows  map[string][][]any
	fails map[string]error
	ran   []string
}

func (d *valueDB) Exec(q string) error {
	d.ran = append(d.ran, q)
	return d.fails[q]
}

func (d *valueDB) QueryValues(q string) (int, [][]any, error) {
	d.ran = append(d.ran, q)
	if err := d.fails[q]; err != nil {
		return 0, nil, err
	}
	rows := d.rows[q]
	n := 0
	if len(rows) > 0 {
		n = len(rows[0])
	}
	return n, rows, nil
}

func TestSQLiteScript(t *testing.T) {
	script := `hash-threshold 8

statement ok
CREATE TABLE t1(a INTEGER)

# a comment
onlyif mysql
statement ok
MYSQL ONLY

skipif icesql
statement ok
NOT FOR US

query IRT rowsort
SELECT a, b, c FROM t1
----
1
2.500
(empty)
NULL
NULL
x@y

query I valuesort label-1
SELECT a FROM t1
----
1
2
3
4
5

query I rowsort label-1
SELECT a FROM t2
----
1
2
3
4
5

query I nosort label-1
SELECT a FROM t2

statement error
DROP TABLE nope

statement ok
CREATE INDEX i ON t1(a)

statement ok
CREATE TABLE t3(u INTEGER UNIQUE)

query I nosort
SELECT u FROM t3
----

onlyif mssql
halt

query I nosort
SELECT 1
----
2

halt

query I nosort
SELECT never
`
	recs, err := ParseScript(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	five := [][]any{{int64(3)}, {int64(1)}, {int64(2)}, {int64(5)}, {int64(4)}}
	db := &valueDB{
		rows: map[string][][]any{
			"SELECT a, b, c FROM t1": {{nil, nil, "x\ty"}, {int64(1), 2.5, ""}},
			"SELECT a FROM t1":       five,
			"SELECT a FROM t2":       five,
			"SELECT 1":               {{int64(1)}},
		},
		fails: map[string]error{
			"DROP TABLE nope":                   errors.New("no such table"),
			"CREATE INDEX i ON t1(a)":           errors.New("not supported: no indexes"),
			"CREATE TABLE t3(u INTEGER UNIQUE)": errors.New("not supported: no unique"),
			"SELECT u FROM t3":                  errors.New("no such table t3"),
		},
	}
	r := &ScriptRunner{Engine: "icesql", Refusals: []Refusal{{Pattern: regexpMust(`not supported`), Reason: "by design"}}}
	st, fails := r.Run(db, "f.test", recs)
	if st.Count[Passed] != 5 || st.Count[Skipped] != 2 || st.Count[Refused] != 3 || st.Count[Wrong] != 2 || st.Count[Errored] != 0 {
		t.Fatalf("stats %v; failures %v", st, fails)
	}
	// wrong: the unsorted query of label-1 (its values agree, their order
	// not) and SELECT 1
	for _, f := range fails {
		if f.Outcome == Wrong && f.Record.SQL != "SELECT 1" && !strings.Contains(f.Msg, "label-1") {
			t.Errorf("unexpected failure %v", f)
		}
	}
	if strings.Contains(strings.Join(db.ran, ";"), "never") || strings.Contains(strings.Join(db.ran, ";"), "ONLY") {
		t.Errorf("ran records it should have skipped: %q", db.ran)
	}
	if got := RenderValue(-2.7, 'I'); got != "-2" {
		t.Errorf("RenderValue(-2.7, I) = %s", got)
	}
	if got := RenderValue("12abc", 'I'); got != "12" {
		t.Errorf("RenderValue(12abc, I) = %s", got)
	}
	if got := RenderValue(int64(3), 'R'); got != "3.000" {
		t.Errorf("RenderValue(3, R) = %s", got)
	}
}

func TestSQLiteScriptHash(t *testing.T) {
	// md5("1\n2\n3\n4\n5\n") as the C harness computes it
	recs, err := ParseScript(strings.NewReader("hash-threshold 2\n\nquery I valuesort\nSELECT a\n----\n5 values hashing to a7b1ac3a2b072f71a8e0d463bf4eb822\n"))
	if err != nil {
		t.Fatal(err)
	}
	db := &valueDB{rows: map[string][][]any{"SELECT a": {{int64(5)}, {int64(4)}, {int64(3)}, {int64(2)}, {int64(1)}}}}
	st, fails := (&ScriptRunner{Engine: "icesql"}).Run(db, "h.test", recs)
	if st.Count[Passed] != 1 {
		t.Fatalf("%v %v", st, fails)
	}
}

func TestParseScriptErrors(t *testing.T) {
	for _, bad := range []string{"query X\nSELECT 1\n", "query I sideways\nSELECT 1\n", "statement maybe\nSELECT 1\n", "frobnicate\n", "skipif\nquery I\nSELECT 1\n", "statement ok\n"} {
		if _, err := ParseScript(strings.NewReader(bad)); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err %v, want ErrSyntax", bad, err)
		}
	}
}

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

func TestScriptDivergences(t *testing.T) {
	script := `query I nosort label-1
SELECT 7 / 2 * 2
----
6

query I nosort label-1
SELECT 6
----
6

query I nosort
SELECT 9 / 2 * 2
----
8

query I nosort
SELECT 8 / 2
----
4
`
	recs, err := ParseScript(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	db := &valueDB{rows: map[string][][]any{
		"SELECT 7 / 2 * 2":   {{7.0}},
		"SELECT 7 DIV 2 * 2": {{int64(6)}},
		"SELECT 6":           {{int64(6)}},
		"SELECT 9 / 2 * 2":   {{9.0}},
		"SELECT 9 DIV 2 * 2": {{int64(10)}}, // the rewrite does not give the expected result either
		"SELECT 8 / 2":       {{4.0}},
	}}
	div := Divergence{
		Rewrite: func(q string) (string, bool) { return strings.ReplaceAll(q, "/", "DIV"), strings.Contains(q, "/") },
		Reason:  "true division",
	}
	for _, tc := range []struct {
		name        string
		divergences []Divergence
		passed      int
		refused     int
		wrong       int
	}{
		// the wrong hash of label-1 makes the second query wrong too
		{"without", nil, 1, 0, 3},
		{"with", []Divergence{div}, 2, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &ScriptRunner{Engine: "icesql", Divergences: tc.divergences}
			st, fails := r.Run(db, "div.test", recs)
			if st.Count[Passed] != tc.passed || st.Count[Refused] != tc.refused || st.Count[Wrong] != tc.wrong {
				t.Fatalf("stats %v; failures %v", st, fails)
			}
			if !strings.HasPrefix(st.SlowestAt, "div.test:") || !strings.Contains(st.String(), "slowest") {
				t.Errorf("slowest query at %q: %v", st.SlowestAt, st)
			}
			if tc.refused > 0 && st.RefusedBy["true division"] != tc.refused {
				t.Errorf("refused by %v", st.RefusedBy)
			}
		})
	}
}
