package parser

import (
	"errors"
	"strings"
	"testing"
)

// TiDB's parser panics on integer literals beyond its decimal capacity;
// such literals must come back as a syntax error naming the problem.
func TestLongNumberLiterals(t *testing.T) {
	for _, tc := range []struct {
		sql     string
		wantErr bool
	}{
		{"SELECT " + strings.Repeat("4", 65), false},
		{"SELECT " + strings.Repeat("4", 66), true},
		{"SELECT " + strings.Repeat("4", 900) + "* FROM t", true},
		{"SELECT 1." + strings.Repeat("5", 70), true},
		{"SELECT '" + strings.Repeat("4", 900) + "'", false},
		{"SELECT 1e308", false},
	} {
		_, err := Parse(tc.sql)
		if (err != nil) != tc.wantErr {
			t.Errorf("Parse(%.40q...): err = %v, want error %v", tc.sql, err, tc.wantErr)
		}
		if tc.wantErr && (!errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "digits")) {
			t.Errorf("Parse(%.40q...): %v, want a syntax error about digits", tc.sql, err)
		}
	}
}
