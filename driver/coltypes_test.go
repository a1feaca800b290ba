package driver_test

import (
	"slices"
	"testing"
	"time"
)

// ColumnTypes names types as CREATE TABLE spells them and reports NOT
// NULL columns as not nullable (unless an outer join can make them NULL).
func TestColumnTypesNamesAndNullability(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE c (id BIGINT NOT NULL, name STRING, ts TIMESTAMP, ntz TIMESTAMP_NTZ, d DATE NOT NULL, amount DECIMAL(10, 2), tags ARRAY<STRING>, m MAP<STRING, INT>, st STRUCT<a: INT>)")
	mustExec(t, db, "INSERT INTO c (id, d) VALUES (1, DATE '2026-01-01')")
	tests := []struct {
		name     string
		query    string
		types    []string
		nullable []bool
	}{
		{"table columns", "SELECT id, name, ts, ntz, d, amount, tags, m, st FROM c",
			[]string{"BIGINT", "STRING", "TIMESTAMP", "TIMESTAMP_NTZ", "DATE", "DECIMAL", "ARRAY", "MAP", "STRUCT"},
			[]bool{false, true, true, true, false, true, true, true, true}},
		{"star", "SELECT * FROM c", nil, []bool{false, true, true, true, false, true, true, true, true}},
		{"expressions", "SELECT id + 1, 'x', NULL, count(*) FROM c GROUP BY id", []string{"BIGINT", "STRING", "VOID", "BIGINT"}, []bool{true, false, true, false}},
		{"outer join", "SELECT a.id, b.id FROM c a LEFT JOIN c b ON a.id = b.id + 1", nil, []bool{false, true}},
		{"filter and order keep it", "SELECT id FROM c WHERE id > 0 ORDER BY id LIMIT 1", nil, []bool{false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := db.Query(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			cts, err := rows.ColumnTypes()
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			var nullable []bool
			for _, ct := range cts {
				types = append(types, ct.DatabaseTypeName())
				n, ok := ct.Nullable()
				if !ok {
					t.Fatalf("column %s: nullability unknown", ct.Name())
				}
				nullable = append(nullable, n)
			}
			if tc.types != nil && !slices.Equal(types, tc.types) {
				t.Errorf("types %v, want %v", types, tc.types)
			}
			if !slices.Equal(nullable, tc.nullable) {
				t.Errorf("nullable %v, want %v", nullable, tc.nullable)
			}
		})
	}
}

// A time.Time argument into a DATE column stores its date as the
// argument's location has it, as other drivers do.
func TestTimeIntoDate(t *testing.T) {
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE d (id INT, day DATE, ts TIMESTAMP)")
	tokyo := time.FixedZone("JST", 9*3600)
	tests := []struct {
		name string
		arg  time.Time
		want string
	}{
		{"utc midnight", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), "2026-03-01"},
		{"utc afternoon", time.Date(2026, 3, 1, 15, 4, 5, 0, time.UTC), "2026-03-01"},
		{"east of utc after midnight", time.Date(2026, 3, 1, 0, 30, 0, 0, tokyo), "2026-03-01"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mustExec(t, db, "INSERT INTO d VALUES (?, ?, ?)", i, tc.arg, tc.arg)
			var day, ts time.Time
			if err := db.QueryRow("SELECT day, ts FROM d WHERE id = ?", i).Scan(&day, &ts); err != nil {
				t.Fatal(err)
			}
			if got := day.Format(time.DateOnly); got != tc.want {
				t.Errorf("date %s, want %s", got, tc.want)
			}
			if !ts.Equal(tc.arg) {
				t.Errorf("timestamp %v, want the instant %v", ts, tc.arg)
			}
		})
	}
	var got string
	if err := db.QueryRow("SELECT CAST(CAST('2026-01-02 10:11:12' AS DATE) AS STRING)").Scan(&got); err != nil || got != "2026-01-02" {
		t.Errorf("CAST of timestamp text AS DATE: %q, %v", got, err)
	}
	if err := db.QueryRow("SELECT CAST('2026-01-02 nonsense' AS DATE)").Scan(&got); err == nil {
		t.Errorf("CAST('2026-01-02 nonsense' AS DATE) = %q, want an error", got)
	}
}
