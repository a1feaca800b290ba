package interop

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// TestSQLRowLevelIcebergGoReads: row-level DELETE and UPDATE through
// database/sql, in copy-on-write (rewritten data files) and merge-on-read
// (icesql's position delete files) modes; iceberg-go's scan returns what
// SELECT returns.
func TestSQLRowLevelIcebergGoReads(t *testing.T) {
	modes := []struct {
		name        string
		props       string
		wantDeletes bool // planned tasks carry position delete files
	}{
		{"copy-on-write", "", false},
		{"merge-on-read", "ALTER TABLE lake.events SET TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')", true},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			dir := t.TempDir()
			db := openSQL(t, dir)
			mustExec(t, db, "CREATE NAMESPACE lake")
			mustExec(t, db, "CREATE TABLE lake.events ("+flatSQLColumns+") PARTITIONED BY (bucket(2, id))")
			if mode.props != "" {
				mustExec(t, db, mode.props)
			}
			const n = 90
			insertFlatRows(t, db, "lake.events", n)
			// Rows scattered over both buckets and every data file.
			mustExec(t, db, "DELETE FROM lake.events WHERE id IN (3, 4, 17, 42, 43, 88)")
			mustExec(t, db, "UPDATE lake.events SET amount = 1000.5 WHERE id IN (5, 6, 60)")

			want := expectedRows(t, arrowOf(t, flatSchema(t)), flatRowsAfterDML(n))
			got := sqlRows(t, db, "SELECT id, category, ts, amount FROM lake.events")
			requireSameRows(t, "expected", want, "SQL SELECT", got)
			goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
			goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, "events"))
			requireSameRows(t, "expected", want, "iceberg-go", goRows(t, goTbl))

			iceTbl := openIce(t, filepath.Join(dir, "catalog.db"), dir, false).load(t, table.Identifier{Namespace: []string{"lake"}, Name: "events"})
			tasks, err := icePlan(context.Background(), iceTbl)
			if err != nil {
				t.Fatal(err)
			}
			posDeletes := 0
			for _, task := range tasks {
				for _, d := range task.Deletes {
					if d.File.Content == iceberg.ContentPositionDeletes {
						posDeletes++
					}
				}
			}
			if (posDeletes > 0) != mode.wantDeletes {
				t.Errorf("%d position delete files planned", posDeletes)
			}
		})
	}
}

// insertFlatRows inserts flatSQLRow(0..n-1) into table in one statement.
func insertFlatRows(t *testing.T, db *sql.DB, table string, n int) {
	t.Helper()
	var sb strings.Builder
	var args []any
	sb.WriteString("INSERT INTO " + table + " VALUES ")
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("(?, ?, ?, ?)")
		for _, v := range flatSQLRow(i) {
			args = append(args, sqlArg(v))
		}
	}
	mustExec(t, db, sb.String(), args...)
}

// flatRowsAfterDML is flatSQLRow(0..n-1) after the row-level tests'
// changes: ids 3, 4, 17, 42, 43 and 88 deleted, amount 1000.5 for 5, 6, 60.
func flatRowsAfterDML(n int) [][]any {
	var kept [][]any
	for i := 0; i < n; i++ {
		switch i {
		case 3, 4, 17, 42, 43, 88:
			continue
		}
		r := flatSQLRow(i)
		if i == 5 || i == 6 || i == 60 {
			r[3] = 1000.5
		}
		kept = append(kept, r)
	}
	return kept
}
