package parser

import (
	"errors"
	"testing"
)

func TestPlaceholders(t *testing.T) {
	tests := []struct {
		in, want string
		style    PlaceholderStyle
		n        int
	}{
		{"SELECT $1, $12", "SELECT ? , ?  ", Numbered, 2},
		{"SELECT :a + @bc", "SELECT ?  + ?  ", Named, 2},
		{"INSERT INTO t VALUES (:id,:s)", "INSERT INTO t VALUES (?  ,? )", Named, 2},
		{"SELECT ?", "SELECT ?", Positional, 0},
		{"SELECT '$1', `$2`, \":a\" -- $3\n", "SELECT '$1', `$2`, \":a\" -- $3\n", Positional, 0},
		{"SELECT x::int, a:b, @@v, $x, $1a", "SELECT x::int, a:b, @@v, $x, $1a", Positional, 0},
		{"SELECT CAST(x AS STRUCT<a:INT>) FROM t WHERE y = :y", "SELECT CAST(x AS STRUCT<a:INT>) FROM t WHERE y = ? ", Named, 1},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, style, list, err := Placeholders(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || style != tt.style || len(list) != tt.n {
				t.Errorf("got %q %v %d, want %q %v %d", got, style, len(list), tt.want, tt.style, tt.n)
			}
			if len(got) != len(tt.in) {
				t.Errorf("offsets moved: %d bytes from %d", len(got), len(tt.in))
			}
		})
	}
	for _, bad := range []string{"SELECT ?, $1", "SELECT $1, :a", "SELECT :a, ?", "SELECT $0"} {
		if _, _, _, err := Placeholders(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: %v, want a syntax error", bad, err)
		}
	}
}
