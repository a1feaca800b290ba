package bench

import "testing"

func TestDiff(t *testing.T) {
	row := func(v ...any) []any { return v }
	base := Result{Rows: [][]any{row("a", int64(1), 0.1+0.2), row("b", int64(2), nil)}}
	tests := []struct {
		name    string
		got     Result
		ordered bool
		same    bool
	}{
		{"same", base, true, true},
		{"reordered, unordered query", Result{Rows: [][]any{base.Rows[1], base.Rows[0]}}, false, true},
		{"reordered, ordered query", Result{Rows: [][]any{base.Rows[1], base.Rows[0]}}, true, false},
		{"float within 1e-9", Result{Rows: [][]any{row("a", int64(1), 0.3), base.Rows[1]}}, true, true},
		{"float off", Result{Rows: [][]any{row("a", int64(1), 0.3001), base.Rows[1]}}, true, false},
		{"integer off", Result{Rows: [][]any{row("a", int64(3), 0.3), base.Rows[1]}}, true, false},
		{"NULL against a value", Result{Rows: [][]any{base.Rows[0], row("b", int64(2), 0.0)}}, true, false},
		{"a row missing", Result{Rows: base.Rows[:1]}, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Diff(base, tc.got, tc.ordered)
			if (d == "") != tc.same {
				t.Errorf("Diff = %q, want same=%v", d, tc.same)
			}
			if tc.same && base.Checksum(tc.ordered) != tc.got.Checksum(tc.ordered) {
				t.Errorf("checksums differ for equal answers")
			}
		})
	}
}
