package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// Two transactions MERGE into the same rows. Under serializable the second
// to commit fails with *iceberg.ValidationError and nothing of it is
// visible; in both write modes.
func TestConflictingMergesSerializable(t *testing.T) {
	for _, mode := range []string{"copy-on-write", "merge-on-read"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			db := openDB(t, t.TempDir())
			mustExec(t, db, "CREATE TABLE acct (id BIGINT NOT NULL, bal BIGINT) TBLPROPERTIES ('write.merge.mode' = '"+mode+"')")
			mustExec(t, db, "INSERT INTO acct VALUES (1, 100), (2, 200)")
			mustExec(t, db, "CREATE TABLE delta (id BIGINT NOT NULL, amt BIGINT)")
			mustExec(t, db, "INSERT INTO delta VALUES (1, 5), (2, 5)")
			const merge = `MERGE INTO acct t USING delta d ON t.id = d.id
				WHEN MATCHED THEN UPDATE SET bal = t.bal + d.amt`
			serializable := &sql.TxOptions{Isolation: sql.LevelSerializable}
			tx1, err := db.BeginTx(ctx, serializable)
			if err != nil {
				t.Fatal(err)
			}
			defer tx1.Rollback()
			tx2, err := db.BeginTx(ctx, serializable)
			if err != nil {
				t.Fatal(err)
			}
			defer tx2.Rollback()
			if _, err := tx1.Exec(merge); err != nil {
				t.Fatal(err)
			}
			if _, err := tx2.Exec(merge); err != nil {
				t.Fatal(err)
			}
			// tx2 sees its own MERGE; nobody else does yet.
			var own int64
			if err := tx2.QueryRow("SELECT sum(bal) FROM acct").Scan(&own); err != nil || own != 310 {
				t.Fatalf("read-your-writes: %d, %v", own, err)
			}
			if got := queryInt(t, db, "SELECT sum(bal) FROM acct"); got != 300 {
				t.Fatalf("uncommitted MERGE visible: sum %d", got)
			}
			if err := tx1.Commit(); err != nil {
				t.Fatal(err)
			}
			var verr *iceberg.ValidationError
			if err := tx2.Commit(); !errors.As(err, &verr) {
				t.Fatalf("second commit: %v, want *iceberg.ValidationError", err)
			}
			if got := queryInt(t, db, "SELECT sum(bal) FROM acct"); got != 310 {
				t.Fatalf("sum = %d, want 310 (only the first MERGE)", got)
			}
			if got := queryInt(t, db, "SELECT count(*) FROM acct.snapshots"); got != 2 {
				t.Fatalf("%d snapshots, want 2 (insert, first MERGE)", got)
			}
		})
	}
}
