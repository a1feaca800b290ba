package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/sqltest"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// errCase is one bad statement: the sentinels its error must match
// (errors.Is), and the words its message must contain (the offending
// table, column, value or position).
type errCase struct {
	name  string
	sql   string
	args  []any
	is    []error
	names []string
}

func checkErr(t *testing.T, err error, tc errCase) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", tc.sql)
	}
	if err.Error() == "" {
		t.Fatalf("%s: empty error message (%T)", tc.sql, err)
	}
	for _, s := range tc.is {
		if !errors.Is(err, s) {
			t.Errorf("%s: error %q (%T) is not %v", tc.sql, err, err, s)
		}
	}
	for _, w := range tc.names {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not name %q", tc.sql, err, w)
		}
	}
}

// execOrQuery runs q as a query (so SELECT errors that surface while
// reading rows are seen too).
func execOrQuery(ctx context.Context, db *sql.DB, q string, args ...any) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// newErrorWarehouse has table t with a column of every primitive type
// (one row), table u sharing column names with t, and namespace ns
// holding one table.
func newErrorWarehouse(t *testing.T) *sql.DB {
	t.Helper()
	db := openDB(t, t.TempDir())
	for _, q := range []string{
		"CREATE TABLE t (id BIGINT NOT NULL, s STRING, d DOUBLE, dt DATE, ts TIMESTAMP, b BOOLEAN, `dec` DECIMAL(10,2), i INT, f FLOAT, bin BINARY, u UUID, tm TIME, tz TIMESTAMPTZ, st STRUCT<a: INT, b: STRING>, l ARRAY<INT>, m MAP<STRING, INT>)",
		"INSERT INTO t (id, s, i) VALUES (1, 'a', 10)",
		"CREATE TABLE u (id BIGINT, s STRING)",
		"INSERT INTO u VALUES (1, 'x')",
		"CREATE NAMESPACE ns",
		"CREATE TABLE ns.x (a INT)",
	} {
		mustExec(t, db, q)
	}
	return db
}

func TestErrorsAreTypedAndNamed(t *testing.T) {
	db := newErrorWarehouse(t)
	tests := []errCase{
		// Names that do not resolve.
		{"unknown table", "SELECT * FROM nope", nil, []error{iceberg.ErrNoSuchTable, planner.ErrUnknownTable}, []string{"nope"}},
		{"unknown table in namespace", "SELECT * FROM ns.nope", nil, []error{iceberg.ErrNoSuchTable}, []string{"ns.nope"}},
		{"unknown namespace", "SELECT * FROM nons.t", nil, []error{iceberg.ErrNoSuchTable}, []string{"nons.t"}},
		{"unknown column", "SELECT nope FROM t", nil, []error{planner.ErrUnknownColumn}, []string{"nope"}},
		{"unknown qualified column", "SELECT u.nope FROM u", nil, []error{planner.ErrUnknownColumn}, []string{"u.nope"}},
		{"unknown struct field", "SELECT st.nope FROM t", nil, []error{planner.ErrUnknownColumn}, []string{"nope"}},
		{"unknown function", "SELECT nope(1) FROM t", nil, []error{planner.ErrUnknownFunction}, []string{"nope"}},
		{"ambiguous column", "SELECT id FROM t, u", nil, []error{planner.ErrAmbiguousColumn}, []string{"id", "t.id", "u.id"}},
		{"unknown metadata table", "SELECT * FROM u.nope", nil, []error{iceberg.ErrNoSuchTable}, []string{"nope"}},
		{"metadata table of missing table", "SELECT * FROM nope.snapshots", nil, []error{iceberg.ErrNoSuchTable}, []string{"nope"}},
		{"unknown snapshot", "SELECT * FROM u VERSION AS OF 12345", nil, []error{iceberg.ErrNoSuchSnapshot}, []string{"12345"}},
		{"unknown procedure", "CALL system.nope()", nil, nil, []string{"nope"}},

		// Wrong types.
		{"string into bigint", "INSERT INTO t (id) VALUES ('abc')", nil, nil, []string{"abc"}},
		{"string into boolean", "INSERT INTO t (id, b) VALUES (1, 'maybe')", nil, nil, []string{"maybe"}},
		{"bad date", "INSERT INTO t (id, dt) VALUES (1, '2024-02-30')", nil, nil, []string{"2024-02-30"}},
		{"bad timestamp", "INSERT INTO t (id, ts) VALUES (1, '2024-13-01 00:00:00')", nil, nil, []string{"2024-13-01"}},
		{"bad uuid", "INSERT INTO t (id, u) VALUES (1, 'not-a-uuid')", nil, nil, []string{"not-a-uuid"}},
		{"bad time", "INSERT INTO t (id, tm) VALUES (1, '25:00:00')", nil, nil, []string{"25:00:00"}},
		{"integer into date", "INSERT INTO t (id, dt) VALUES (1, 5)", nil, []error{planner.ErrType}, []string{"dt"}},
		{"int overflow", "INSERT INTO t (id, i) VALUES (1, 99999999999)", nil, nil, []string{"99999999999"}},
		{"decimal overflow", "INSERT INTO t (id, `dec`) VALUES (1, 123456789012.5)", nil, nil, []string{"123456789012.5"}},
		{"string into list", "INSERT INTO t (id, l) VALUES (1, 'x')", nil, nil, []string{"ARRAY<INT>"}},
		{"string argument into bigint", "INSERT INTO t (id) VALUES (?)", []any{"abc"}, nil, []string{"abc"}},
		{"wrong update type", "UPDATE t SET id = 'abc'", nil, nil, []string{"abc"}},
		{"wrong where type", "SELECT * FROM t WHERE s = 1", nil, []error{planner.ErrType}, []string{"STRING", "BIGINT"}},
		{"wrong delete where type", "DELETE FROM t WHERE s = 1", nil, []error{planner.ErrType}, []string{"STRING"}},
		{"wrong join type", "SELECT * FROM t JOIN u ON t.id = u.s", nil, []error{planner.ErrType}, []string{"BIGINT", "STRING"}},
		{"sum of strings", "SELECT sum(s) FROM u", nil, []error{planner.ErrType}, []string{"sum", "STRING"}},
		{"bad cast", "SELECT CAST('abc' AS SIGNED)", nil, nil, []string{"abc"}},
		{"bad decimal cast", "SELECT CAST(123456 AS DECIMAL(3,1))", nil, nil, []string{"123456", "DECIMAL(3, 1)"}},
		{"bad date cast", "SELECT CAST('x' AS DATE)", nil, nil, []string{`"x"`}},
		{"bigint overflow", "SELECT 9223372036854775807 + 1", nil, nil, []string{"overflow"}},

		// NOT NULL.
		{"null into not null", "INSERT INTO t (id) VALUES (NULL)", nil, []error{iceberg.ErrNotNullViolation}, []string{"id"}},
		{"omitted not null column", "INSERT INTO t (s) VALUES ('x')", nil, []error{iceberg.ErrNotNullViolation}, []string{"id"}},
		{"null argument into not null", "INSERT INTO t (id) VALUES (?)", []any{nil}, []error{iceberg.ErrNotNullViolation}, []string{"id"}},
		{"update to null", "UPDATE t SET id = NULL", nil, []error{iceberg.ErrNotNullViolation}, []string{"id"}},

		// Shape.
		{"too few values", "INSERT INTO u VALUES (1)", nil, []error{planner.ErrInvalidQuery}, []string{"1 values", "2 columns"}},
		{"unknown insert column", "INSERT INTO u (nope) VALUES (1)", nil, []error{planner.ErrUnknownColumn}, []string{"nope"}},
		{"insert select width", "INSERT INTO u SELECT * FROM t", nil, []error{sqlexec.ErrInvalidStatement}, []string{"16 columns", "2"}},
		{"group by misuse", "SELECT id FROM u GROUP BY s", nil, []error{planner.ErrInvalidQuery}, []string{"id"}},
		{"order by position", "SELECT * FROM u ORDER BY 5", nil, []error{planner.ErrInvalidQuery}, []string{"5"}},
		{"union width", "SELECT 1 UNION SELECT 1, 2", nil, []error{planner.ErrInvalidQuery}, []string{"1", "2"}},
		{"missing argument", "SELECT ?", nil, []error{sqlexec.ErrParams}, []string{"1 placeholders", "0 arguments"}},
		{"extra argument", "SELECT 1", []any{1}, []error{sqlexec.ErrParams}, nil},

		// Malformed SQL: the position is in the message.
		{"misspelt keyword", "SELEC 1", nil, []error{parser.ErrSyntax}, []string{"line 1 column 1"}},
		{"truncated statement", "SELECT * FROM t WHERE", nil, []error{parser.ErrSyntax}, []string{"line 1 column 22", "end of input"}},
		{"unterminated string", "SELECT 'abc", nil, []error{parser.ErrSyntax}, []string{"line 1 column 8", "unterminated"}},
		{"second line", "SELECT *\nFROM t\nWHERE id = = 1", nil, []error{parser.ErrSyntax}, []string{"line 3 column 12"}},
		{"empty statement", "", nil, []error{sqlexec.ErrInvalidStatement}, []string{"empty"}},
		{"only semicolons", " ; ; ", nil, []error{sqlexec.ErrInvalidStatement}, []string{"empty"}},
		{"huge limit literal", "SELECT * FROM u LIMIT 99999999999999999999", nil, []error{parser.ErrSyntax}, []string{"99999999999999999999"}},
		{"negative limit", "SELECT * FROM u LIMIT -1", nil, []error{parser.ErrSyntax}, []string{"-1"}},

		// Unsupported statements.
		{"grant", "GRANT ALL ON t TO bob", nil, []error{sqlexec.ErrNotSupported}, []string{"GRANT"}},
		{"create index", "CREATE INDEX ix ON t (id)", nil, []error{sqlexec.ErrNoIcebergFeature}, []string{"Iceberg has no indexes", "CREATE INDEX"}},
		{"truncate", "TRUNCATE TABLE u", nil, []error{sqlexec.ErrNotSupported}, []string{"TRUNCATE"}},

		// DDL.
		{"table exists", "CREATE TABLE u (x INT)", nil, []error{iceberg.ErrTableAlreadyExists}, []string{"u"}},
		{"create in missing namespace", "CREATE TABLE nons.t (x INT)", nil, []error{iceberg.ErrNoSuchNamespace}, []string{"nons"}},
		{"namespace exists", "CREATE NAMESPACE ns", nil, []error{iceberg.ErrNamespaceExists}, []string{"ns"}},
		{"drop non-empty namespace", "DROP NAMESPACE ns", nil, []error{iceberg.ErrNamespaceNotEmpty}, []string{"ns"}},
		{"drop missing namespace", "DROP NAMESPACE nope", nil, []error{iceberg.ErrNoSuchNamespace}, []string{"nope"}},
		{"drop missing table", "DROP TABLE nope", nil, []error{iceberg.ErrNoSuchTable}, []string{"nope"}},
		{"alter missing table", "ALTER TABLE nope ADD COLUMNS (x INT)", nil, []error{iceberg.ErrNoSuchTable}, []string{"nope"}},
		{"describe missing table", "DESCRIBE nope", nil, []error{iceberg.ErrNoSuchTable}, []string{"nope"}},
		{"properties of missing table", "SHOW TBLPROPERTIES nope", nil, []error{iceberg.ErrNoSuchTable}, []string{"nope"}},
		{"add existing column", "ALTER TABLE u ADD COLUMNS (s INT)", nil, []error{iceberg.ErrInvalidSchema}, []string{`"s"`}},
		{"drop missing column", "ALTER TABLE u DROP COLUMN nope", nil, []error{iceberg.ErrNoSuchField}, []string{"nope"}},
		{"rename missing column", "ALTER TABLE u RENAME COLUMN nope TO x", nil, []error{iceberg.ErrNoSuchField}, []string{"nope"}},
		{"narrowing type change", "ALTER TABLE u ALTER COLUMN s TYPE INT", nil, []error{iceberg.ErrTypeMismatch}, []string{`"s"`, "string", "int"}},
		{"unknown transform", "CREATE TABLE p (x INT) PARTITIONED BY (bogus(x))", nil, []error{parser.ErrSyntax}, []string{"column 45"}},
		{"bucket without count", "CREATE TABLE p (x INT) PARTITIONED BY (bucket(x))", nil, []error{parser.ErrSyntax}, nil},
		{"zero buckets", "CREATE TABLE p (x INT) PARTITIONED BY (bucket(0, x))", nil, []error{parser.ErrSyntax}, []string{"bucket count", "0"}},
		{"day of an int", "CREATE TABLE p (x INT) PARTITIONED BY (days(x))", nil, []error{iceberg.ErrInvalidPartitionSpec}, []string{`"x"`, "day"}},
		{"partition by missing column", "CREATE TABLE p (x INT) PARTITIONED BY (nope)", nil, []error{iceberg.ErrNoSuchField}, []string{"nope"}},
		{"bad format version", "ALTER TABLE u SET TBLPROPERTIES ('format-version'='7')", nil, []error{iceberg.ErrInvalidMetadata, iceberg.ErrUnsupported}, []string{"7"}},
		{"non-numeric retries", "ALTER TABLE u SET TBLPROPERTIES ('commit.retry.num-retries'='abc')", nil, []error{iceberg.ErrInvalidMetadata}, []string{"commit.retry.num-retries", "abc"}},
		{"negative retries", "ALTER TABLE u SET TBLPROPERTIES ('commit.retry.num-retries'='-3')", nil, []error{iceberg.ErrInvalidMetadata}, []string{"commit.retry.num-retries", "-3"}},
		{"non-boolean gc", "ALTER TABLE u SET TBLPROPERTIES ('gc.enabled'='maybe')", nil, []error{iceberg.ErrInvalidMetadata}, []string{"gc.enabled", "maybe"}},
		{"bad create property", "CREATE TABLE p (x INT) TBLPROPERTIES ('write.target-file-size-bytes'='big')", nil, []error{iceberg.ErrInvalidMetadata}, []string{"write.target-file-size-bytes"}},
		{"reserved property", "ALTER TABLE u SET TBLPROPERTIES ('current-snapshot-id'='1')", nil, []error{iceberg.ErrInvalidMetadata}, []string{"current-snapshot-id"}},
	}
	digest := tableDigest(t, db, "u")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkErr(t, execOrQuery(context.Background(), db, tc.sql, tc.args...), tc)
		})
	}
	if got := tableDigest(t, db, "u"); got != digest {
		t.Errorf("failed statements changed table u:\n%s\nwant\n%s", got, digest)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t"); n != 1 {
		t.Errorf("failed statements left %d rows in t, want 1", n)
	}
	for _, q := range []string{"SELECT * FROM p", "SELECT * FROM nons.t"} {
		if err := execOrQuery(context.Background(), db, q); !errors.Is(err, iceberg.ErrNoSuchTable) {
			t.Errorf("a failed CREATE left a table behind: %s: %v", q, err)
		}
	}
	// The rejected property left the old value (the default) in force.
	if got := queryStrings(t, db, "SHOW TBLPROPERTIES u"); strings.Contains(strings.Join(got, ","), "num-retries") {
		t.Errorf("rejected property stored: %v", got)
	}
}

// TestDivisionSemantics pins what division by zero and integer division
// give (Spark's default, non-ANSI semantics: NULL, never an error).
func TestDivisionSemantics(t *testing.T) {
	db := openDB(t, t.TempDir())
	tests := []struct{ sql, want string }{
		{"SELECT 1/0", "<nil>"},
		{"SELECT 1.0/0", "<nil>"},
		{"SELECT 1.5/0.0", "<nil>"},
		{"SELECT 1 % 0", "<nil>"},
		{"SELECT 7 / 2", "3.5"},
		{"SELECT 7 DIV 2", "3"},
		{"SELECT -7 DIV 2", "-3"},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			got, err := tryQueryStrings(db, tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("got %v, want %s", got, tc.want)
			}
		})
	}
}

// TestBadDSN: every malformed DSN is refused by sql.Open with ErrBadDSN
// and a *DSNError whose message names the problem.
func TestBadDSN(t *testing.T) {
	wh := t.TempDir()
	tests := []struct{ dsn, names string }{
		{"", "empty"},
		{"   ", "empty"},
		{"s3://bucket/lake", "s3"},
		{"http://x/lake", "http"},
		{"file://otherhost/lake", "otherhost"},
		{wh + "?bogus=1", "bogus"},
		{wh + "?mode=rx", "rx"},
		{wh + "?mode=", "mode"},
		{wh + "?mode=ro&mode=rw", "mode"},
		{wh + "?namespace=%zz", "malformed"},
		{"?mode=ro", "warehouse"},
	}
	for _, tc := range tests {
		t.Run(tc.dsn, func(t *testing.T) {
			db, err := sql.Open("iceberg", tc.dsn)
			if err == nil {
				// database/sql defers to the connector; a ping must fail then.
				err = db.Ping()
				db.Close()
			}
			var de *driver.DSNError
			if !errors.Is(err, driver.ErrBadDSN) || !errors.As(err, &de) {
				t.Fatalf("err = %v (%T), want *DSNError", err, err)
			}
			if !strings.Contains(err.Error(), tc.names) {
				t.Fatalf("err %q does not name %q", err, tc.names)
			}
		})
	}
}

// TestReadOnlyRefusesEveryWrite: with mode=ro every statement that would
// write fails with ErrReadOnly and changes nothing; reads still work.
func TestReadOnlyRefusesEveryWrite(t *testing.T) {
	wh := t.TempDir()
	rw := openDB(t, wh)
	mustExec(t, rw, "CREATE TABLE t (id BIGINT, s STRING)")
	mustExec(t, rw, "INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	digest := tableDigest(t, rw, "t")
	ro := openDB(t, wh+"?mode=ro")
	for _, q := range []string{
		"INSERT INTO t VALUES (3, 'c')",
		"INSERT INTO t SELECT * FROM t",
		"UPDATE t SET s = 'z'",
		"DELETE FROM t WHERE id = 1",
		"MERGE INTO t USING t AS s ON t.id = s.id WHEN MATCHED THEN DELETE",
		"CREATE TABLE u (x INT)",
		"CREATE TABLE u AS SELECT * FROM t",
		"DROP TABLE t",
		"ALTER TABLE t ADD COLUMNS (z INT)",
		"ALTER TABLE t SET TBLPROPERTIES ('k'='v')",
		"CREATE NAMESPACE other",
		"DROP NAMESPACE default",
		"CALL system.expire_snapshots(table => 't')",
	} {
		t.Run(q, func(t *testing.T) {
			_, err := ro.Exec(q)
			if !errors.Is(err, driver.ErrReadOnly) {
				t.Fatalf("err = %v, want ErrReadOnly", err)
			}
		})
	}
	if got := tableDigest(t, ro, "t"); got != digest {
		t.Fatalf("read-only connection changed t:\n%s\nwant\n%s", got, digest)
	}
	if _, err := ro.Exec("CREATE TABLE u (x INT)"); err == nil {
		t.Fatal("second write on ro succeeded")
	}
}

// TestKnownBugs holds failures found here in packages owned elsewhere;
// each is skipped until its owner fixes it.
func TestKnownBugs(t *testing.T) {
	t.Run("duplicate insert column", func(t *testing.T) {
		db := newErrorWarehouse(t)
		checkErr(t, execOrQuery(context.Background(), db, "INSERT INTO u (id, id) VALUES (1, 2)"), errCase{sql: "INSERT INTO u (id, id)", names: []string{"id"}})
	})
	t.Run("limit plus offset overflow", func(t *testing.T) {
		db := openDB(t, t.TempDir())
		mustExec(t, db, "CREATE TABLE u (id BIGINT)")
		mustExec(t, db, "INSERT INTO u VALUES (1), (2), (3)")
		for _, q := range []string{"SELECT id FROM u ORDER BY id LIMIT 9223372036854775807 OFFSET 1", "SELECT id FROM u LIMIT 9223372036854775807 OFFSET 1"} {
			if got := queryStrings(t, db, q); len(got) != 2 {
				t.Errorf("%s: got %v, want 2 rows", q, got)
			}
		}
	})
	t.Run("int64 underflow", func(t *testing.T) {
		db := openDB(t, t.TempDir())
		checkErr(t, execOrQuery(context.Background(), db, "SELECT -9223372036854775808 - 1"), errCase{sql: "SELECT -9223372036854775808 - 1", names: []string{"overflow"}})
	})
}

// tableDigest renders a table's rows (sorted), its live files and its
// snapshot ids: equal digests mean no write happened.
func tableDigest(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	d, err := tryTableDigest(db, table)
	if err != nil {
		t.Fatalf("digest of %s: %v", table, err)
	}
	return d
}

func tryTableDigest(db *sql.DB, table string) (string, error) {
	var parts []string
	for _, q := range []string{
		"SELECT * FROM " + table,
		"SELECT file_path FROM " + table + ".files",
		"SELECT snapshot_id FROM " + table + ".snapshots",
	} {
		rows, err := tryQueryStrings(db, q)
		if err != nil {
			return "", err
		}
		slices.Sort(rows)
		parts = append(parts, strings.Join(rows, "\n"))
	}
	return strings.Join(parts, "\n--\n"), nil
}

// heavy runs the full-size resource-limit cases (seconds each).
var heavy = flag.Bool("heavy", false, "run the full-size resource-limit cases")

func repeatJoin(n int, format, sep string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(format, i)
	}
	return strings.Join(parts, sep)
}

// TestResourceLimits: statements of extreme size finish with the right
// answer or fail with a clear error; none crashes. How long they take is
// measured by benchmarks (BenchmarkArithmeticChain), not asserted here.
func TestResourceLimits(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE u (id BIGINT, s STRING)")
	mustExec(t, db, "INSERT INTO u VALUES (1, 'x'), (2, 'y'), (3, 'z')")
	scale := 1
	if *heavy {
		scale = 10
	}
	big := strings.Repeat("x", scale<<20)
	tests := []struct {
		name, sql string
		want      []string
	}{
		{"huge IN list", "SELECT count(*) FROM u WHERE id IN (" + repeatJoin(10000*scale, "%d", ",") + ")", []string{"3"}},
		{"huge NOT IN list", "SELECT count(*) FROM u WHERE id NOT IN (" + repeatJoin(10000*scale, "%d", ",") + ")", []string{"0"}},
		{"deep parentheses", "SELECT " + strings.Repeat("(", 1000*scale) + "1" + strings.Repeat(")", 1000*scale), []string{"1"}},
		{"deep negation", "SELECT " + strings.Repeat("- ", 1000*scale) + "1", []string{"1"}},
		{"deep NOT", "SELECT " + strings.Repeat("NOT ", 1000*scale) + "true", []string{"true"}},
		{"long arithmetic chain", "SELECT 0" + strings.Repeat(" + 1", 10000*scale), []string{strconv.Itoa(10000 * scale)}},
		{"nested scalar subqueries", "SELECT " + strings.Repeat("(SELECT ", 50*scale) + "1" + strings.Repeat(")", 50*scale), []string{"1"}},
		{"big string literal", "SELECT length('" + big + "')", []string{strconv.Itoa(len(big))}},
		{"many columns", "SELECT " + repeatJoin(1000*scale, "id + %d", ", ") + " FROM u WHERE id = 1", []string{shiftedCounts(1000 * scale)}},
		{"limit max int64", "SELECT id FROM u ORDER BY id LIMIT 9223372036854775807", []string{"1", "2", "3"}},
		{"offset max int64", "SELECT id FROM u LIMIT 9223372036854775807 OFFSET 9223372036854775807", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := db.Query(tc.sql)
			if err != nil {
				// A clear refusal is fine; a crash is not (a hang is
				// caught by go test -timeout).
				if err.Error() == "" {
					t.Fatalf("err = %v", err)
				}
				t.Logf("refused: %.200v", err)
				return
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			var got []string
			for rows.Next() {
				vals, err := sqltest.ScanRow(rows, len(cols))
				if err != nil {
					t.Fatal(err)
				}
				parts := make([]string, len(vals))
				for i, v := range vals {
					parts[i] = fmt.Sprint(v)
				}
				got = append(got, strings.Join(parts, "|"))
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("reading rows: %v", err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %.200v, want %.200v", got, tc.want)
			}
		})
	}
	// The big string also goes into a table and back.
	mustExec(t, db, "INSERT INTO u VALUES (4, ?)", big)
	if n := queryInt(t, db, "SELECT length(s) FROM u WHERE id = 4"); n != int64(len(big)) {
		t.Fatalf("stored string length %d, want %d", n, len(big))
	}
}

// shiftedCounts is "1|2|...|n": the values of id + i for id = 1.
func shiftedCounts(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(parts, "|")
}
