package slt

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type fakeDB struct {
	rows [][]string
	err  error
}

func (f *fakeDB) Exec(string) error { return f.err }
func (f *fakeDB) Query(string) ([]string, [][]string, error) {
	if f.err != nil {
		return nil, nil, f.err
	}
	return []string{"a", "b"}, f.rows, nil
}

func TestParseAndRun(t *testing.T) {
	file := `# comment
statement ok
CREATE TABLE t (a INT)

query IT rowsort
SELECT a, b
FROM t
----
2	y
1	x

statement error no such
DROP TABLE nope
`
	recs, err := Parse(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[1].SQL != "SELECT a, b\nFROM t" || len(recs[1].Expect) != 2 {
		t.Fatalf("parsed %+v", recs)
	}
	tests := []struct {
		name string
		db   *fakeDB
		rec  int
		pass bool
	}{
		{"rowsort matches", &fakeDB{rows: [][]string{{"1", "x"}, {"2", "y"}}}, 1, true},
		{"wrong rows", &fakeDB{rows: [][]string{{"1", "x"}}}, 1, false},
		{"statement ok fails", &fakeDB{err: errors.New("boom")}, 0, false},
		{"error matches", &fakeDB{err: errors.New("no such table")}, 2, true},
		{"error differs", &fakeDB{err: errors.New("other")}, 2, false},
		{"missing error", &fakeDB{}, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := RunRecord(tc.db, recs[tc.rec])
			if (msg == "") != tc.pass {
				t.Fatalf("pass=%v, msg %q", msg == "", msg)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"bogus line\n", "query I weird\nSELECT 1\n", "statement ok\nSELECT 1\n----\n1\n", "statement error (\nSELECT 1\n", "query I\n\n"} {
		t.Run(fmt.Sprintf("%q", bad), func(t *testing.T) {
			if _, err := Parse(strings.NewReader(bad)); !errors.Is(err, ErrSyntax) {
				t.Fatalf("err = %v, want ErrSyntax", err)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("statement ok\nSELECT 1\n\nquery I\nSELECT 1\n----\n1\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Parse(strings.NewReader(s))
	})
}
