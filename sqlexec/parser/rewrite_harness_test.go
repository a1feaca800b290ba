package parser

import (
	"errors"
	"strings"
	"testing"
)

// rewriteCase is a query and a piece of the text its rewritten TiDB tree
// restores to.
type rewriteCase struct {
	in, want string
}

// checkRestoredContains parses each case and checks that its restored
// text, spaces and charset introducers dropped, contains want (spaces
// dropped too).
func checkRestoredContains(t *testing.T, tests []rewriteCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			st, err := ParseOne(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.NewReplacer(" ", "", "_utf8mb4", "").Replace(restoreNode(t, st.(*TiDBStmt).Node))
			if !strings.Contains(got, strings.ReplaceAll(tc.want, " ", "")) {
				t.Errorf("got %s, want it to contain %s", got, tc.want)
			}
		})
	}
}

// fuzzParseDeterministic seeds f and checks, for mangled queries, that
// parsing never panics, is deterministic and prints its statements the
// same way twice.
func fuzzParseDeterministic(f *testing.F, seeds []string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		first, err1 := Parse(sql)
		second, err2 := Parse(sql)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("parse is not deterministic: %v then %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		if len(first) != len(second) {
			t.Fatalf("%d statements then %d", len(first), len(second))
		}
		for i := range first {
			if a, b := first[i].String(), second[i].String(); a != b {
				t.Fatalf("statement %d printed %q then %q", i, a, b)
			}
		}
	})
}

// errorCase is a query that must fail to parse at column col, with the
// error's text starting near.
type errorCase struct {
	in   string
	col  int
	near string
}

// checkParseErrors checks that each case fails with a *ParseError that
// points at the user's text, not at the rewritten text.
func checkParseErrors(t *testing.T, tests []errorCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := ParseOne(tc.in)
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("got %v, want a ParseError", err)
			}
			if pe.Col != tc.col || !strings.HasPrefix(pe.Near, tc.near) {
				t.Errorf("got column %d near %q, want column %d near %q", pe.Col, pe.Near, tc.col, tc.near)
			}
		})
	}
}
