package sqlexec_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec"
)

func TestAncestorsOf(t *testing.T) {
	db, _ := openWarehouse(t)
	mustExec(t, db, "CREATE TABLE ns.t (id BIGINT)")
	if got := queryRows(t, db, "CALL system.ancestors_of('ns.t')"); len(got) != 0 {
		t.Fatalf("ancestors of an empty table = %v", got)
	}
	for i := range 3 {
		mustExec(t, db, fmt.Sprintf("INSERT INTO ns.t VALUES (%d)", i))
	}
	got := queryRows(t, db, "CALL system.ancestors_of('ns.t')")
	if len(got) != 3 {
		t.Fatalf("ancestors = %v, want 3 rows", got)
	}
	ids := queryRows(t, db, "SELECT snapshot_id FROM ns.t.history ORDER BY made_current_at")
	// newest first; each row's timestamp is its snapshot's (milliseconds)
	for i, row := range got {
		id, ts, _ := strings.Cut(row, "|")
		if id != ids[len(ids)-1-i] {
			t.Fatalf("row %d = %s, want snapshot %s (history %v)", i, row, ids[len(ids)-1-i], ids)
		}
		if ts == "" || ts == "0" {
			t.Fatalf("row %d has no timestamp: %s", i, row)
		}
	}
	// from the middle snapshot: it and its parent
	mid := ids[1]
	if got := queryRows(t, db, "CALL system.ancestors_of(snapshot_id => "+mid+", table => 'ns.t')"); len(got) != 2 || !strings.HasPrefix(got[0], mid+"|") {
		t.Fatalf("ancestors of %s = %v", mid, got)
	}
	_, err := db.Exec("CALL system.ancestors_of('ns.t', 42)")
	if !errors.Is(err, iceberg.ErrNoSuchSnapshot) {
		t.Fatalf("err = %v, want ErrNoSuchSnapshot", err)
	}
}

// morTable makes a merge-on-read table of the given format version with
// two data files (ids 1-3 and 4-6) and one position delete file covering
// rows of both.
func morTable(t *testing.T, version int) (*sql.DB, string) {
	db, dir := openWarehouse(t)
	mustExec(t, db, fmt.Sprintf("CREATE TABLE ns.t (id BIGINT, v STRING) TBLPROPERTIES ('format-version'='%d', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')", version))
	mustExec(t, db, "INSERT INTO ns.t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	mustExec(t, db, "INSERT INTO ns.t VALUES (4, 'd'), (5, 'e'), (6, 'f')")
	mustExec(t, db, "DELETE FROM ns.t WHERE id IN (1, 4)")
	mustExec(t, db, "DELETE FROM ns.t WHERE id IN (2, 5)")
	return db, dir
}

func TestRewritePositionDeleteFilesDropsDangling(t *testing.T) {
	db, dir := morTable(t, 2)
	// a metadata-only removal of the second data file leaves its position
	// delete files behind, dangling
	removeDataFileWith(t, dir, 4)
	before := queryRows(t, db, "SELECT id, v FROM ns.t ORDER BY id")
	if n := queryInt64(t, db, "SELECT count(*) FROM ns.t.delete_files"); n != 4 {
		t.Fatalf("delete files = %d, want 4 (2 of them dangling)", n)
	}
	row := callRow(t, db, "CALL system.rewrite_position_delete_files(table => 'ns.t', options => map('rewrite-all', 'true'))")
	if row["rewritten_delete_files_count"] != int32(4) || row["added_delete_files_count"] != int32(1) {
		t.Fatalf("result = %v, want 4 rewritten into 1", row)
	}
	if row["rewritten_bytes_count"].(int64) <= 0 || row["added_bytes_count"].(int64) <= 0 {
		t.Fatalf("byte counts = %v", row)
	}
	if n := queryInt64(t, db, "SELECT sum(record_count) FROM ns.t.delete_files"); n != 2 {
		t.Fatalf("delete records = %d, want 2 (the dangling ones dropped)", n)
	}
	if got := queryRows(t, db, "SELECT id, v FROM ns.t ORDER BY id"); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Fatalf("rows changed: %v, want %v", got, before)
	}
	if op := queryRows(t, db, "SELECT operation FROM ns.t.snapshots ORDER BY committed_at DESC LIMIT 1"); op[0] != "replace" {
		t.Fatalf("operation = %v", op)
	}
}

func TestRewritePositionDeleteFilesV3(t *testing.T) {
	db, _ := morTable(t, 2)
	before := queryRows(t, db, "SELECT id, v FROM ns.t ORDER BY id")
	mustExec(t, db, "ALTER TABLE ns.t SET TBLPROPERTIES ('format-version'='3')")
	row := callRow(t, db, "CALL system.rewrite_position_delete_files('ns.t')")
	if row["rewritten_delete_files_count"] != int32(4) || row["added_delete_files_count"] != int32(2) {
		t.Fatalf("result = %v, want 4 position delete files turned into 2 deletion vectors", row)
	}
	if got := queryRows(t, db, "SELECT file_format FROM ns.t.delete_files"); strings.Join(got, ",") != "PUFFIN,PUFFIN" {
		t.Fatalf("delete file formats = %v", got)
	}
	if got := queryRows(t, db, "SELECT id, v FROM ns.t ORDER BY id"); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Fatalf("rows changed: %v, want %v", got, before)
	}
	// only deletion vectors left: nothing to do, as in Java
	row = callRow(t, db, "CALL system.rewrite_position_delete_files('ns.t')")
	if row["rewritten_delete_files_count"] != int32(0) {
		t.Fatalf("second call = %v", row)
	}
}

func TestCreateChangelogView(t *testing.T) {
	db, _ := morTable(t, 3)
	ids := queryRows(t, db, "SELECT snapshot_id FROM ns.t.history ORDER BY made_current_at")
	// the second DELETE replaces deletion vectors: only 2 and 5 are new
	row := callRow(t, db, "CALL system.create_changelog_view(table => 'ns.t', options => map('start-snapshot-id', ?))", ids[1])
	if row["changelog_view"] != "t_changes" {
		t.Fatalf("result = %v", row)
	}
	got := queryRows(t, db, "SELECT id, _change_type, _change_ordinal, _commit_snapshot_id FROM t_changes ORDER BY _change_ordinal, id")
	want := []string{"1|DELETE|0|" + ids[2], "4|DELETE|0|" + ids[2], "2|DELETE|1|" + ids[3], "5|DELETE|1|" + ids[3]}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("changelog = %v, want %v", got, want)
	}
	// end-snapshot-id bounds it; a later call replaces the view
	callRow(t, db, "CALL system.create_changelog_view(table => 'ns.t', options => map('end-snapshot-id', ?))", ids[0])
	if n := queryInt64(t, db, "SELECT count(*) FROM t_changes"); n != 3 {
		t.Fatalf("changelog of the first snapshot has %d rows, want 3", n)
	}
	t.Run("timestamps", func(t *testing.T) {
		// ancestors_of gives each snapshot's commit time in milliseconds
		ts := map[string]string{}
		for _, r := range queryRows(t, db, "CALL system.ancestors_of('ns.t')") {
			id, ms, _ := strings.Cut(r, "|")
			ts[id] = ms
		}
		if ts[ids[0]] == ts[ids[1]] || ts[ids[2]] == ts[ids[3]] {
			t.Skip("commits in one millisecond: timestamps do not tell them apart")
		}
		const q = "SELECT id, _change_type, _change_ordinal, _commit_snapshot_id FROM %s ORDER BY _change_ordinal, id"
		callRow(t, db, "CALL system.create_changelog_view(table => 'ns.t', changelog_view => 'by_id', options => map('start-snapshot-id', ?, 'end-snapshot-id', ?))", ids[0], ids[2])
		callRow(t, db, "CALL system.create_changelog_view(table => 'ns.t', changelog_view => 'by_ts', options => map('start-timestamp', ?, 'end-timestamp', ?))", ts[ids[0]], ts[ids[2]])
		byID, byTS := queryRows(t, db, fmt.Sprintf(q, "by_id")), queryRows(t, db, fmt.Sprintf(q, "by_ts"))
		if len(byID) == 0 || strings.Join(byID, ",") != strings.Join(byTS, ",") {
			t.Fatalf("by timestamps %v, by ids %v", byTS, byID)
		}
	})
	t.Run("bad arguments", func(t *testing.T) {
		for _, tc := range []struct{ q, want string }{
			{"CALL system.create_changelog_view(table => 'ns.t', options => map('start-snapshot-id', 'x'))", `"x" is not a long`},
			{"CALL system.create_changelog_view(table => 'ns.t', options => map('start-snapshot-id', '" + ids[3] + "', 'end-snapshot-id', '" + ids[1] + "'))", "not an ancestor"},
			{"CALL system.create_changelog_view(table => 'ns.t', options => map('start-snapshot-id', '1', 'start-timestamp', '1'))", "not both"},
			{"CALL system.create_changelog_view(table => 'ns.t', identifier_columns => array('nope'))", `unknown column "nope"`},
			{"CALL system.create_changelog_view(table => 'ns.t', changelog_view => 'a..b')", "argument changelog_view"},
		} {
			_, err := db.Exec(tc.q)
			if !errors.Is(err, sqlexec.ErrProcedureArgument) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: err = %v, want %q", tc.q, err, tc.want)
			}
		}
	})
}

// removeDataFileWith commits the removal of the data file of ns.t whose
// id bounds hold id, and nothing else.
func removeDataFileWith(t *testing.T, warehouse string, id int64) {
	t.Helper()
	ctx := context.Background()
	e, err := sqlexec.Open(ctx, sqlexec.Config{Warehouse: warehouse})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tbl, err := table.Load(ctx, e.Env(), table.Identifier{Namespace: []string{"ns"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	open := func(p string) (io.ReadCloser, error) { return tbl.IO().Open(ctx, p) }
	tasks, _, err := scan.Plan(ctx, open, tbl.Metadata(), tbl.Metadata().CurrentSnapshotID(), expr.Eq("id", id), scan.Options{})
	if err != nil || len(tasks) != 1 {
		t.Fatalf("plan for id %d: %d tasks, err %v", id, len(tasks), err)
	}
	if _, err := tbl.NewDelete().RemoveFile(tasks[0].File).Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestChangelogAfterExpiry: once a commit's parent is expired its changes
// are rebuilt from its own manifests, and read the same as before.
func TestChangelogAfterExpiry(t *testing.T) {
	for _, tc := range []struct {
		name    string
		retain  int // snapshots kept: the oldest kept one has no parent
		wantErr string
	}{
		{"merge-on-read delete first", 3, ""},
		// the copy-on-write delete removed the first file with its delete
		// file, which expiry then removed: that commit's changes are lost
		{"copy-on-write delete first", 2, "start the changelog at this snapshot"},
		{"append first", 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := openWarehouse(t)
			mustExec(t, db, "CREATE TABLE ns.t (id BIGINT, v STRING) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')")
			mustExec(t, db, "INSERT INTO ns.t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
			mustExec(t, db, "INSERT INTO ns.t VALUES (4, 'd'), (5, 'e')")
			mustExec(t, db, "DELETE FROM ns.t WHERE id = 2")
			mustExec(t, db, "ALTER TABLE ns.t SET TBLPROPERTIES ('write.delete.mode'='copy-on-write')")
			mustExec(t, db, "DELETE FROM ns.t WHERE id IN (3, 5)")
			mustExec(t, db, "INSERT INTO ns.t VALUES (6, 'f')")
			ids := queryRows(t, db, "SELECT snapshot_id FROM ns.t.history ORDER BY made_current_at")
			start := ids[len(ids)-tc.retain-1]
			const changes = "SELECT id, v, _change_type, _change_ordinal, _commit_snapshot_id FROM %s ORDER BY _change_ordinal, id, _change_type"
			callRow(t, db, "CALL system.create_changelog_view(table => 'ns.t', changelog_view => 'before_expiry', options => map('start-snapshot-id', ?))", start)
			want := queryRows(t, db, fmt.Sprintf(changes, "before_expiry"))
			if len(want) == 0 {
				t.Fatal("empty changelog")
			}
			callRow(t, db, "CALL system.expire_snapshots(table => 'ns.t', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => ?)", tc.retain)
			if n := queryInt64(t, db, "SELECT count(*) FROM ns.t.snapshots"); n != int64(tc.retain) {
				t.Fatalf("%d snapshots after expiry, want %d", n, tc.retain)
			}
			if tc.wantErr != "" {
				_, err := db.Exec("CALL system.create_changelog_view(table => 'ns.t', changelog_view => 'after_expiry')")
				if !errors.Is(err, iceberg.ErrNotFound) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				callRow(t, db, "CALL system.create_changelog_view(table => 'ns.t', changelog_view => 'after_expiry', options => map('start-snapshot-id', ?))", ids[len(ids)-tc.retain])
				want = slices.DeleteFunc(want, func(r string) bool { return strings.HasSuffix(r, "|"+ids[len(ids)-tc.retain]) })
				for i, r := range want { // ordinals shift down by one
					parts := strings.Split(r, "|")
					n, _ := strconv.Atoi(parts[3])
					parts[3] = strconv.Itoa(n - 1)
					want[i] = strings.Join(parts, "|")
				}
			} else {
				callRow(t, db, "CALL system.create_changelog_view(table => 'ns.t', changelog_view => 'after_expiry')")
			}
			if got := queryRows(t, db, fmt.Sprintf(changes, "after_expiry")); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("changelog after expiry:\n got %v\nwant %v", got, want)
			}
		})
	}
}
