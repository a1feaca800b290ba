package sqlexec_test

import (
	"strings"
	"testing"
)

// TestProcedureResultColumnsAreSparks: each CALL returns the columns
// Spark's procedure of the same name returns, in its order.
func TestProcedureResultColumnsAreSparks(t *testing.T) {
	db, _ := openWarehouse(t)
	mustExec(t, db, "CREATE TABLE ns.t (id BIGINT, s STRING) TBLPROPERTIES ('write.delete.mode'='merge-on-read')")
	mustExec(t, db, "INSERT INTO ns.t VALUES (1, 'a')")
	mustExec(t, db, "INSERT INTO ns.t VALUES (2, 'b')")
	mustExec(t, db, "DELETE FROM ns.t WHERE id = 2")
	first := queryInt64(t, db, "SELECT min(snapshot_id) FROM ns.t.snapshots")
	mustExec(t, db, "ALTER TABLE ns.t CREATE BRANCH b")
	src := t.TempDir()
	for _, tc := range []struct {
		call string
		args []any
		want string
	}{
		{"CALL system.rewrite_manifests('ns.t')", nil, "rewritten_manifests_count,added_manifests_count"},
		{"CALL system.rewrite_data_files(table => 'ns.t', options => map('rewrite-all', 'true'))", nil,
			"rewritten_data_files_count,added_data_files_count,rewritten_bytes_count,failed_data_files_count"},
		{"CALL system.rewrite_position_delete_files('ns.t')", nil,
			"rewritten_delete_files_count,added_delete_files_count,rewritten_bytes_count,added_bytes_count"},
		{"CALL system.expire_snapshots(table => 'ns.t', retain_last => 10)", nil,
			"deleted_data_files_count,deleted_position_delete_files_count,deleted_equality_delete_files_count," +
				"deleted_manifest_files_count,deleted_manifest_lists_count,deleted_statistics_files_count"},
		{"CALL system.remove_orphan_files(table => 'ns.t', dry_run => true)", nil, "orphan_file_location"},
		{"CALL system.ancestors_of('ns.t')", nil, "snapshot_id,timestamp"},
		{"CALL system.fast_forward('ns.t', 'b', 'main')", nil, "branch_updated,previous_ref,updated_ref"},
		{"CALL system.add_files(table => 'ns.t', source_table => ?)", []any{"`parquet`.`" + src + "`"}, "added_files_count,changed_partition_count"},
		{"CALL system.create_changelog_view(table => 'ns.t')", nil, "changelog_view"},
		{"CALL system.set_current_snapshot('ns.t', ?)", []any{first}, "previous_snapshot_id,current_snapshot_id"},
		{"CALL system.rollback_to_snapshot('ns.t', ?)", []any{first}, "previous_snapshot_id,current_snapshot_id"},
	} {
		rows, err := db.Query(tc.call, tc.args...)
		if err != nil {
			t.Fatalf("%s: %v", tc.call, err)
		}
		cols, _ := rows.Columns()
		rows.Close()
		if got := strings.Join(cols, ","); got != tc.want {
			t.Errorf("%s: columns %s, Spark's are %s", tc.call, got, tc.want)
		}
	}
}
