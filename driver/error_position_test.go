package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec"
)

// An unknown name is one message with a caret and a near miss, and the
// typed errors underneath still match.
func TestErrorPositionKeepsChain(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE trip (id INT, name STRING)")
	_, err := db.Query("SELECT * FROM trp")
	want := "table default.trp does not exist; did you mean \"trip\"?\nLINE 1: SELECT * FROM trp\n                      ^"
	if err == nil || err.Error() != want {
		t.Fatalf("got %q, want %q", err, want)
	}
	var pos *sqlexec.PositionError
	var ute *planner.UnknownTableError
	if !errors.Is(err, iceberg.ErrNoSuchTable) || !errors.Is(err, planner.ErrUnknownTable) ||
		!errors.As(err, &pos) || !errors.As(err, &ute) || pos.Line != 1 || pos.Col != 15 || ute.Suggestion != "trip" {
		t.Fatalf("chain lost: %#v", err)
	}
	_, err = db.Query("SELECT id,\n  nmae FROM trip")
	var uce *planner.UnknownColumnError
	if !errors.As(err, &uce) || !errors.As(err, &pos) || pos.Line != 2 || pos.Col != 3 || uce.Suggestion != "name" ||
		!strings.Contains(err.Error(), "LINE 2:   nmae FROM trip\n          ^") {
		t.Fatalf("got %q", err)
	}
}

// A column list of INSERT names its near miss too, with VALUES and with a
// query.
func TestInsertColumnDidYouMean(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE trip (id INT, name STRING)")
	for _, q := range []string{
		"INSERT INTO trip (id, nmae) VALUES (1, 'a')",
		"INSERT INTO trip (id, nmae) SELECT 1, 'a'",
	} {
		_, err := db.Exec(q)
		var ue *planner.UnknownColumnError
		if !errors.As(err, &ue) || ue.Suggestion != "name" || !strings.Contains(err.Error(), `unknown column nmae; did you mean "name"?`) {
			t.Errorf("%s: %v, want unknown column nmae with the suggestion name", q, err)
		}
	}
}

// The extension layer's statements (MERGE, DDL) and write targets point at
// the name too, and keep the errors they matched before.
func TestErrorPositionExtensionStatements(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE trip (id INT, name STRING)")
	tests := []struct {
		sql       string
		line, col int
		is        error
	}{
		{"MERGE INTO trip t USING trip s ON t.id = s.idd WHEN MATCHED THEN DELETE", 1, 42, planner.ErrUnknownColumn},
		{"ALTER TABLE trip\n  RENAME COLUMN nmae TO n", 2, 17, iceberg.ErrNoSuchField},
		{"ALTER TABLE trip DROP COLUMN nmae", 1, 30, planner.ErrUnknownColumn},
		{"UPDATE trp SET name = 'x'", 1, 8, iceberg.ErrNoSuchTable},
		{"DELETE FROM trp", 1, 13, planner.ErrUnknownTable},
		{"DELETE FROM trip WHERE nmae = 'x'", 1, 24, planner.ErrUnknownColumn},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			_, err := db.Exec(tt.sql)
			var pos *sqlexec.PositionError
			if !errors.As(err, &pos) || pos.Line != tt.line || pos.Col != tt.col || !errors.Is(err, tt.is) ||
				!strings.Contains(err.Error(), "did you mean") {
				t.Fatalf("got %v (%#v), want a caret at %d:%d matching %v", err, pos, tt.line, tt.col, tt.is)
			}
		})
	}
}
