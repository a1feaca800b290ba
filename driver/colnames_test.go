package driver_test

import (
	"slices"
	"testing"
)

// Unnamed result columns are named by their expression as written, with
// string literals free of the parser's charset introducer.
func TestExpressionColumnNames(t *testing.T) {
	db := openDB(t, t.TempDir())
	rows, err := db.Query("SELECT upper('a'), map('k', 1)['k'], 1 + 2")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"upper('a')", "map('k', 1)['k']", "1+2"}; !slices.Equal(cols, want) {
		t.Fatalf("columns %q, want %q", cols, want)
	}
}
