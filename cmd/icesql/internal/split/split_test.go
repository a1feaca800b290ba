package split

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Piece
		rest string
	}{
		{"one", "SELECT 1;", []Piece{{Text: "SELECT 1", Line: 1, Col: 1}}, ""},
		{"two on a line", "SELECT 1; SELECT 2;", []Piece{{Text: "SELECT 1", Line: 1, Col: 1}, {Text: "SELECT 2", Line: 1, Col: 11}}, ""},
		{"unterminated", "SELECT 1; SELECT", []Piece{{Text: "SELECT 1", Line: 1, Col: 1}}, "SELECT"},
		{"semicolon in single quotes", "SELECT 'a;b';", []Piece{{Text: "SELECT 'a;b'", Line: 1, Col: 1}}, ""},
		{"doubled quote", "SELECT 'it''s;';", []Piece{{Text: "SELECT 'it''s;'", Line: 1, Col: 1}}, ""},
		{"backslash quote", `SELECT 'a\';b';`, []Piece{{Text: `SELECT 'a\';b'`, Line: 1, Col: 1}}, ""},
		{"double quotes", `SELECT "x;y";`, []Piece{{Text: `SELECT "x;y"`, Line: 1, Col: 1}}, ""},
		{"backquotes", "SELECT `a;b` FROM t;", []Piece{{Text: "SELECT `a;b` FROM t", Line: 1, Col: 1}}, ""},
		{"open string", "SELECT 'abc;\n", nil, "SELECT 'abc;\n"},
		{"line comment", "SELECT 1 -- ; not here\n;", []Piece{{Text: "SELECT 1 -- ; not here", Line: 1, Col: 1}}, ""},
		{"hash comment", "SELECT 1 # ;\n;", []Piece{{Text: "SELECT 1 # ;", Line: 1, Col: 1}}, ""},
		{"block comment", "SELECT /* ; */ 1;", []Piece{{Text: "SELECT /* ; */ 1", Line: 1, Col: 1}}, ""},
		{"open block comment", "SELECT /* ; ", nil, "SELECT /* ; "},
		{"only comments", "-- hi\n/* x */\n", nil, ""},
		{"trailing comment", "SELECT 1; -- done", []Piece{{Text: "SELECT 1", Line: 1, Col: 1}}, ""},
		{"comment statement dropped", "/* c */;SELECT 2;", []Piece{{Text: "SELECT 2", Line: 1, Col: 9}}, ""},
		{"empty statements", ";;  ;", nil, ""},
		{"multi-line position", "\n\n  SELECT\n 1;\nSELECT 2;", []Piece{{Text: "SELECT\n 1", Line: 3, Col: 3}, {Text: "SELECT 2", Line: 5, Col: 1}}, ""},
		{"meta command", "\\dt\nSELECT 1;", []Piece{{Text: "\\dt", Meta: true, Line: 1, Col: 1}, {Text: "SELECT 1", Line: 2, Col: 1}}, ""},
		{"meta after statement", "SELECT 1; \\x\n", []Piece{{Text: "SELECT 1", Line: 1, Col: 1}, {Text: "\\x", Meta: true, Line: 1, Col: 11}}, ""},
		{"meta without newline is pending", "\\copy t FROM 'f'", nil, "\\copy t FROM 'f'"},
		{"backslash inside statement", "SELECT\n\\x;", []Piece{{Text: "SELECT\n\\x", Line: 1, Col: 1}}, ""},
		{"meta after a comment line", "SELECT 1; -- note\n\\d t\n-- c\n\\dt\n", []Piece{{Text: "SELECT 1", Line: 1, Col: 1}, {Text: "\\d t", Meta: true, Line: 2, Col: 1}, {Text: "\\dt", Meta: true, Line: 4, Col: 1}}, ""},
		{"comment line before a statement", "-- c\nSELECT 1;", []Piece{{Text: "SELECT 1", Line: 2, Col: 1}}, ""},
		{"unicode columns", "SELECT 'é';SELECT 2;", []Piece{{Text: "SELECT 'é'", Line: 1, Col: 1}, {Text: "SELECT 2", Line: 1, Col: 12}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest := Split(tt.in, Position{1, 1})
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("pieces = %+v\nwant %+v", got, tt.want)
			}
			if rest != tt.rest {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
}

func TestSplitStartPosition(t *testing.T) {
	got, _ := Split("x;\n y;", Position{Line: 10, Col: 5})
	want := []Piece{{Text: "x", Line: 10, Col: 5}, {Text: "y", Line: 11, Col: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v want %+v", got, want)
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"SELECT 1;", "'a;b'", "/* ; */", "-- x\n;", "\\dt\n", "`a``b`;", `'\'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pieces, rest := Split(s, Position{1, 1})
		for _, p := range pieces {
			if p.Text == "" || p.Line < 1 || p.Col < 1 {
				t.Fatalf("bad piece %+v from %q", p, s)
			}
		}
		if len(rest) > len(s) {
			t.Fatalf("rest longer than input")
		}
	})
}
