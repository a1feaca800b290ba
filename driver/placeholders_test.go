package driver_test

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"
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

// Placeholders in every part of a MERGE (source query, ON, WHEN
// conditions, SET and INSERT values) take their arguments in the order of
// the text, and a prepared MERGE runs again with new ones.
func TestMergePlaceholders(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE m (k BIGINT, v BIGINT)")
	mustExec(t, db, "INSERT INTO m VALUES (1, 10), (2, 10)")
	stmt, err := db.Prepare(`MERGE INTO m t
		USING (SELECT CAST(? AS BIGINT) AS k, CAST(? AS BIGINT) AS d) s
		ON t.k = s.k AND t.v < ?
		WHEN MATCHED AND s.d <> ? THEN UPDATE SET v = t.v + s.d * ?
		WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.d + ?)`)
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	runs := []struct {
		args []any
		want string
	}{
		{[]any{1, 3, 100, 0, 2, 0}, "1:16 2:10"},           // k=1 matched: 10 + 3*2
		{[]any{3, 7, 100, 0, 1, 1000}, "1:16 2:10 3:1007"}, // k=3 not matched: inserted 7 + 1000
		{[]any{2, 5, 5, 0, 1, 0}, "1:16 2:10 3:1007 2:5"},  // ON fails (10 < 5 is false): inserted
	}
	for i, r := range runs {
		if _, err := stmt.Exec(r.args...); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		rows, err := db.Query("SELECT k, v FROM m ORDER BY k, v DESC")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var k, v int64
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d:%d", k, v))
		}
		rows.Close()
		want := strings.Fields(r.want)
		slices.SortFunc(want, func(a, b string) int { return strings.Compare(a, b) })
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("run %d: got %v, want %v", i, got, want)
		}
	}
	if _, err := db.Exec("MERGE INTO m t USING (SELECT ? AS k) s ON t.k = s.k WHEN MATCHED THEN DELETE"); err == nil {
		t.Fatal("MERGE with a placeholder and no argument ran")
	}
}
