package dml_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/dml"
)

func TestStatementsInBothModes(t *testing.T) {
	type step struct {
		sql      string
		affected int64
		want     []string
	}
	steps := []step{
		{"DELETE FROM t WHERE id = 2", 1, []string{"1 a 10", "3 c 30", "4 d 40"}},
		{"UPDATE t SET v = v + 1, s = upper(s) WHERE id >= 3", 2, []string{"1 a 10", "3 C 31", "4 D 41"}},
		{"MERGE INTO t USING (SELECT 1 AS id, 'x' AS s, 100 AS v UNION ALL SELECT 9, 'z', 900) AS src ON t.id = src.id " +
			"WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *", 2, []string{"1 x 100", "3 C 31", "4 D 41", "9 z 900"}},
		{"MERGE INTO t AS x USING (SELECT 3 AS k) AS y ON x.id = y.k " +
			"WHEN MATCHED THEN DELETE WHEN NOT MATCHED BY SOURCE AND x.v > 500 THEN UPDATE SET v = -1", 2, []string{"1 x 100", "4 D 41", "9 z -1"}},
		{"MERGE INTO t USING (SELECT 4 AS id UNION ALL SELECT 5) AS s ON t.id = s.id " +
			"WHEN MATCHED AND t.v > 1000 THEN DELETE WHEN MATCHED THEN UPDATE SET v = t.v * 2 " +
			"WHEN NOT MATCHED AND s.id = 6 THEN INSERT (id, v) VALUES (s.id, 6) WHEN NOT MATCHED THEN INSERT (id, s) VALUES (s.id, 'new') " +
			"WHEN NOT MATCHED BY SOURCE AND t.id = 1 THEN DELETE", 3, []string{"4 D 82", "5 new NULL", "9 z -1"}},
		{"UPDATE t SET v = 0 WHERE id > 100", 0, []string{"4 D 82", "5 new NULL", "9 z -1"}},
		{"DELETE FROM t", 3, nil},
	}
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			l := newLake(t)
			l.exec("CREATE TABLE t (id BIGINT NOT NULL, s STRING, v INT)")
			l.setModes("t", mode)
			l.exec("INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, 'd', 40)")
			for _, st := range steps {
				n := l.exec(st.sql)
				if n != st.affected {
					t.Errorf("%s: %d rows affected, want %d", st.sql, n, st.affected)
				}
				equalRows(t, st.sql, l.rows("t"), st.want)
			}
		})
	}
}

func TestMergeCardinalityViolation(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			l := newLake(t)
			l.exec("CREATE TABLE t (id BIGINT, v INT)")
			l.setModes("t", mode)
			l.exec("INSERT INTO t VALUES (1, 10), (2, 20)")
			before := l.table("t").Metadata().CurrentSnapshot().SnapshotID
			_, err := l.db.Exec("MERGE INTO t USING (SELECT 1 AS id UNION ALL SELECT 1) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = 0")
			var ce *dml.CardinalityError
			if !errors.As(err, &ce) || !errors.Is(err, dml.ErrCardinalityViolation) {
				t.Fatalf("got %v, want a cardinality violation", err)
			}
			if got := l.table("t").Metadata().CurrentSnapshot().SnapshotID; got != before {
				t.Fatalf("a snapshot was committed")
			}
			equalRows(t, "rows", l.rows("t"), []string{"1 10", "2 20"})
		})
	}
}

func TestSnapshotSummaries(t *testing.T) {
	tests := []struct {
		mode, sql string
		want      map[string]string
	}{
		{"copy-on-write", "DELETE FROM t WHERE id = 1", map[string]string{"operation": "overwrite", "deleted-data-files": "1", "added-data-files": "1", "deleted-records": "3", "added-records": "2"}},
		{"merge-on-read", "DELETE FROM t WHERE id = 1", map[string]string{"operation": "delete", "added-delete-files": "1", "added-position-deletes": "1"}},
		{"merge-on-read", "UPDATE t SET v = 0 WHERE id = 1", map[string]string{"operation": "overwrite", "added-position-deletes": "1", "added-records": "1"}},
		{"copy-on-write", "DELETE FROM p WHERE part = 'a'", map[string]string{"operation": "delete", "deleted-data-files": "1", "deleted-records": "2"}},
	}
	for _, tc := range tests {
		t.Run(tc.mode+" "+tc.sql, func(t *testing.T) {
			l := newLake(t)
			l.exec("CREATE TABLE t (id BIGINT, v INT)")
			l.setModes("t", tc.mode)
			l.exec("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
			l.exec("CREATE TABLE p (id BIGINT, part STRING) PARTITIONED BY (part)")
			l.exec("INSERT INTO p VALUES (1, 'a'), (2, 'a'), (3, 'b')")
			l.exec(tc.sql)
			name := "t"
			if strings.Contains(tc.sql, " p ") {
				name = "p"
			}
			got := l.summary(name)
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("summary %s = %q, want %q (summary %v)", k, got[k], v, got)
				}
			}
		})
	}
}

// TestAccountsIsolation: a MERGE runs while another connection appends a
// row; serializable fails naming the appended file, snapshot commits.
func TestAccountsIsolation(t *testing.T) {
	for _, iso := range []string{"serializable", "snapshot"} {
		for _, mode := range modes {
			t.Run(iso+"/"+mode, func(t *testing.T) {
				l := newLake(t)
				l.exec("CREATE TABLE accounts (account BIGINT, balance DOUBLE)")
				l.setModes("accounts", mode)
				l.exec("ALTER TABLE accounts SET TBLPROPERTIES ('write.merge.isolation-level'='" + iso + "')")
				l.exec("INSERT INTO accounts VALUES (1, 100.0), (2, 200.0), (3, 300.0)")
				l.exec("CREATE TABLE delta (account BIGINT, amount DOUBLE)")
				l.exec("INSERT INTO delta VALUES (1, 5.0), (2, 5.0), (3, 5.0)")
				other := l.second()
				hook(t, func(ctx context.Context, id table.Identifier) {
					if _, err := other.ExecContext(ctx, "INSERT INTO accounts VALUES (4, 400.0)"); err != nil {
						t.Errorf("concurrent append: %v", err)
					}
				})
				_, err := l.db.Exec("MERGE INTO accounts a USING delta d ON a.account = d.account WHEN MATCHED THEN UPDATE SET balance = a.balance + d.amount")
				if iso == "serializable" {
					var ve *iceberg.ValidationError
					if !errors.As(err, &ve) {
						t.Fatalf("got %v, want a validation error", err)
					}
					if len(ve.ConflictingFiles) == 0 || !strings.Contains(err.Error(), ve.ConflictingFiles[0]) {
						t.Errorf("error does not name the conflicting file: %v", err)
					}
					equalRows(t, "after the failed MERGE", l.rows("accounts"), []string{"1 100.00", "2 200.00", "3 300.00", "4 400.00"})
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, "after the MERGE", l.rows("accounts"), []string{"1 105.00", "2 205.00", "3 305.00", "4 400.00"})
			})
		}
	}
}

// hook installs dml.BeforeCommit for one run (not re-entrant: a statement
// the hook runs does not run the hook again).
func hook(t *testing.T, fn func(ctx context.Context, id table.Identifier)) {
	done := false
	dml.BeforeCommit = func(ctx context.Context, id table.Identifier) {
		if done {
			return
		}
		done = true
		fn(ctx, id)
	}
	t.Cleanup(func() { dml.BeforeCommit = nil })
}

func TestConcurrentMergesIntoTwoPartitions(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			l := newLake(t)
			l.exec("CREATE TABLE t (id BIGINT, part STRING, v INT) PARTITIONED BY (part)")
			l.setModes("t", mode)
			l.exec("INSERT INTO t VALUES (1, 'a', 1), (2, 'a', 2), (1, 'b', 1), (2, 'b', 2)")
			other := l.second()
			hook(t, func(ctx context.Context, id table.Identifier) {
				_, err := other.ExecContext(ctx, "MERGE INTO t USING (SELECT 2 AS id UNION ALL SELECT 3) s ON t.part = 'b' AND t.id = s.id "+
					"WHEN MATCHED THEN UPDATE SET v = 20 WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'b', 30)")
				if err != nil {
					t.Errorf("concurrent MERGE: %v", err)
				}
			})
			_, err := l.db.Exec("MERGE INTO t USING (SELECT 1 AS id UNION ALL SELECT 4) s ON t.part = 'a' AND t.id = s.id " +
				"WHEN MATCHED THEN UPDATE SET v = 10 WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'a', 40)")
			if err != nil {
				t.Fatalf("MERGE into partition a: %v", err)
			}
			equalRows(t, "rows", l.rows("t"), []string{"1 a 10", "1 b 1", "2 a 2", "2 b 20", "3 b 30", "4 a 40"})
		})
	}
}

func TestErrors(t *testing.T) {
	l := newLake(t)
	l.exec("CREATE TABLE t (id BIGINT NOT NULL, v INT)")
	l.exec("INSERT INTO t VALUES (1, 10)")
	tests := []struct {
		sql  string
		want error
	}{
		{"UPDATE t SET id = NULL", iceberg.ErrNotNullViolation},
		{"UPDATE t SET nope = 1", nil},
		{"MERGE INTO t USING (SELECT 1 AS id) s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (1)", dml.ErrInvalid},
		{"MERGE INTO t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = 1, v = 2", dml.ErrInvalid},
		{"DELETE FROM t ORDER BY id LIMIT 1", dml.ErrUnsupported},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := l.db.Exec(tc.sql)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	l.exec("ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode'='sideways')")
	if _, err := l.db.Exec("DELETE FROM t WHERE v = 10"); !errors.Is(err, dml.ErrBadProperty) {
		t.Fatalf("bad mode: got %v", err)
	}
	equalRows(t, "rows", l.rows("t"), []string{"1 10"})
}

// TestInsideTransaction: row-level statements stage into the session's
// transaction and become visible together at COMMIT, or not at all.
func TestInsideTransaction(t *testing.T) {
	for _, mode := range modes {
		for _, commit := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/commit=%v", mode, commit), func(t *testing.T) {
				l := newLake(t)
				l.exec("CREATE TABLE t (id BIGINT, v INT)")
				l.setModes("t", mode)
				l.exec("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
				// BEGIN/COMMIT as statements on one connection (one session).
				ctx := context.Background()
				tx, err := l.db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Close()
				for _, q := range []string{
					"BEGIN",
					"DELETE FROM t WHERE id = 1",
					"UPDATE t SET v = v + 1 WHERE id = 2",
					"MERGE INTO t USING (SELECT 3 AS id UNION ALL SELECT 4) s ON t.id = s.id WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, 40)",
				} {
					if _, err := tx.ExecContext(ctx, q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
				equalRows(t, "before COMMIT", l.rows("t"), []string{"1 10", "2 20", "3 30"})
				want := []string{"1 10", "2 20", "3 30"}
				if commit {
					_, err = tx.ExecContext(ctx, "COMMIT")
					want = []string{"2 21", "4 40"}
				} else {
					_, err = tx.ExecContext(ctx, "ROLLBACK")
				}
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, "after the transaction", l.rows("t"), want)
			})
		}
	}
}
