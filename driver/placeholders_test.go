package driver_test

import (
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/icesql/icesql/sqlexec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// $n placeholders (as pgx) and :name / @name with sql.Named (as
// go-sqlite3) work beside ?, through database/sql.
func TestPlaceholderStyles(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE p (id BIGINT, s STRING)")
	mustExec(t, db, "INSERT INTO p VALUES ($1, $2), ($3, $2)", 1, "a", 2)
	mustExec(t, db, "INSERT INTO p VALUES (:id, :s)", sql.Named("id", 3), sql.Named("s", "c"))
	mustExec(t, db, "INSERT INTO p VALUES (@id, @s)", sql.Named("s", "d"), sql.Named("id", 4))

	tests := []struct {
		name  string
		query string
		args  []any
		want  string
	}{
		{"numbered", "SELECT $1 + $2", []any{1, 2}, "3"},
		{"numbered out of order", "SELECT $2 || $1", []any{"a", "b"}, "ba"},
		{"numbered repeated", "SELECT $1 * $1 + $2", []any{3, 1}, "10"},
		{"numbered in where", "SELECT s FROM p WHERE id = $1", []any{2}, "a"},
		{"colon names", "SELECT :a || :b", []any{sql.Named("b", "y"), sql.Named("a", "x")}, "xy"},
		{"at names", "SELECT @a || @b", []any{sql.Named("a", "x"), sql.Named("b", "y")}, "xy"},
		{"name repeated", "SELECT :x + :x * :y", []any{sql.Named("x", 2), sql.Named("y", 10)}, "22"},
		{"names by position", "SELECT :a || :b || :a", []any{"1", "2"}, "121"},
		{"named in where", "SELECT s FROM p WHERE id = :id", []any{sql.Named("id", 4)}, "d"},
		{"question marks still", "SELECT ? || ?", []any{"p", "q"}, "pq"},
		{"quoted text untouched", "SELECT '$1 :a @b' || $1", []any{"!"}, "$1 :a @b!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			if err := db.QueryRow(tt.query, tt.args...).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}

	t.Run("prepared numbered", func(t *testing.T) {
		st, err := db.Prepare("SELECT count(*) FROM p WHERE id >= $1 AND id <= $2")
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for _, c := range []struct{ lo, hi, want int }{{1, 4, 4}, {2, 3, 2}, {5, 9, 0}} {
			var n int
			if err := st.QueryRow(c.lo, c.hi).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != c.want {
				t.Errorf("[%d, %d]: %d rows, want %d", c.lo, c.hi, n, c.want)
			}
		}
	})
	t.Run("prepared named", func(t *testing.T) {
		st, err := db.Prepare("SELECT s FROM p WHERE id = :id")
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for id, want := range map[int]string{1: "a", 3: "c"} {
			var s string
			if err := st.QueryRow(sql.Named("id", id)).Scan(&s); err != nil {
				t.Fatal(err)
			}
			if s != want {
				t.Errorf("id %d: %q, want %q", id, s, want)
			}
		}
	})
}

func TestPlaceholderErrors(t *testing.T) {
	db := openDB(t, t.TempDir())
	tests := []struct {
		name  string
		query string
		args  []any
		is    error
		want  string
	}{
		{"named argument for ?", "SELECT ?", []any{sql.Named("a", 1)}, sqlexec.ErrParams, "write :a"},
		{"named argument for $n", "SELECT $1", []any{sql.Named("a", 1)}, sqlexec.ErrParams, "in order"},
		{"too few for $n", "SELECT $1, $3", []any{1, 2}, sqlexec.ErrParams, "run to $3, got 2"},
		{"missing name", "SELECT :a, :b", []any{sql.Named("a", 1), sql.Named("c", 2)}, sqlexec.ErrParams, ":b"},
		{"names and positions", "SELECT :a, :b", []any{sql.Named("a", 1), 2}, sqlexec.ErrParams, "name all of them"},
		{"mixed ? and $n", "SELECT ?, $1", []any{1, 2}, parser.ErrSyntax, "use one style"},
		{"mixed $n and :name", "SELECT $1, :a", []any{1, 2}, parser.ErrSyntax, "use one style"},
		{"$0", "SELECT $0", []any{1}, parser.ErrSyntax, "from $1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var x any
			err := db.QueryRow(tt.query, tt.args...).Scan(&x)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %v containing %q", err, tt.is, tt.want)
			}
		})
	}
}
