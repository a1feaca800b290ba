package plannertest

import (
	"errors"
	"testing"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

func TestTypedErrors(t *testing.T) {
	db := NewDB(nil)
	for _, s := range []string{"CREATE TABLE t (a INT NOT NULL, b VARCHAR(5))", "CREATE TABLE u (a INT)"} {
		if err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		sql    string
		target error
	}{
		{"SELECT zz FROM t", planner.ErrUnknownColumn},
		{"SELECT a FROM t, u", planner.ErrAmbiguousColumn},
		{"SELECT * FROM nope", planner.ErrUnknownTable},
		{"SELECT nofunc(a) FROM t", planner.ErrUnknownFunction},
		{"SELECT a + b FROM t", planner.ErrType},
		{"SELECT a FROM t ORDER BY 5", planner.ErrInvalidQuery},
		{"INSERT INTO t VALUES (NULL, 'x')", exec.ErrNullViolation},
		{"INSERT INTO t VALUES ('x', 'x')", exec.ErrInvalidCast},
		{"INSERT INTO t (zz) VALUES (1)", planner.ErrUnknownColumn},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			var err error
			if len(tc.sql) > 6 && tc.sql[:6] == "INSERT" {
				err = db.Exec(tc.sql)
			} else {
				_, _, err = db.Query(tc.sql)
			}
			if !errors.Is(err, tc.target) {
				t.Fatalf("err = %v, want %v", err, tc.target)
			}
		})
	}
	var uc *planner.UnknownColumnError
	_, _, err := db.Query("SELECT t.zz FROM t")
	if !errors.As(err, &uc) || uc.Qualifier != "t" || uc.Name != "zz" {
		t.Fatalf("err = %v, want *UnknownColumnError t.zz", err)
	}
}
