package interop

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestProceduresIcebergGoReads: a partitioned table with several commits,
// merge-on-read deletes, a branch and a tag, changed through database/sql
// by each maintenance procedure and ref DDL in turn. After every step
// iceberg-go (opened on the same catalog file) reads main, every ref and
// every snapshot with exactly the rows icesql's SELECT and VERSION AS OF
// return, and sees the same current snapshot, snapshots and refs.
func TestProceduresIcebergGoReads(t *testing.T) {
	for _, tc := range []struct {
		formatVersion, deleteMode string
	}{
		{"2", "merge-on-read"},
		// icesql writes no deletion vectors, and v3 forbids position
		// delete files: v3 deletes copy on write.
		{"3", "copy-on-write"},
	} {
		t.Run("format-version "+tc.formatVersion, func(t *testing.T) {
			procedureSequence(t, tc.formatVersion, tc.deleteMode)
		})
	}
}

func procedureSequence(t *testing.T, formatVersion, deleteMode string) {
	dir := t.TempDir()
	p := &procTable{db: openSQL(t, dir), sc: arrowOf(t, flatSchema(t))}
	p.goCat = openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	tableDir := filepath.Join(dir, "ns.db", "t")

	// want is the model: the ids each ref holds.
	want := map[string][]int{}
	var (
		auditHead, beforeInserts, firstInsert, secondInsert int64
		beforeInsertsMs                                     int64
	)
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"create and insert three times", func(t *testing.T) {
			mustExec(t, p.db, "CREATE NAMESPACE ns")
			mustExec(t, p.db, "CREATE TABLE ns.t ("+flatSQLColumns+") PARTITIONED BY (category, bucket(4, id)) "+
				"TBLPROPERTIES ('write.delete.mode'='"+deleteMode+"', 'format-version'='"+formatVersion+"')")
			for b := 0; b < 3; b++ {
				p.insertIDs(t, "ns.t", idRange(b*50, (b+1)*50))
			}
			want["main"] = idRange(0, 150)
		}},
		{"merge-on-read delete", func(t *testing.T) {
			mustExec(t, p.db, "DELETE FROM ns.t WHERE id % 7 = 3")
			want["main"] = without(want["main"], func(i int) bool { return i%7 == 3 })
			if n := p.queryInt(t, "SELECT count(*) FROM ns.t.delete_files"); (n > 0) != (deleteMode == "merge-on-read") {
				t.Fatalf("the %s DELETE wrote %d delete files", deleteMode, n)
			}
		}},
		{"create tag and branch", func(t *testing.T) {
			mustExec(t, p.db, "ALTER TABLE ns.t CREATE TAG v1")
			mustExec(t, p.db, "ALTER TABLE ns.t CREATE BRANCH audit")
			want["v1"] = want["main"]
			want["audit"] = want["main"]
		}},
		{"write to the branch and to main", func(t *testing.T) {
			p.insertIDs(t, "ns.t.branch_audit", idRange(200, 210))
			want["audit"] = concatIDs(want["audit"], idRange(200, 210))
			auditHead = p.queryInt(t, "SELECT snapshot_id FROM ns.t.refs WHERE name = 'audit'")
			p.insertIDs(t, "ns.t", idRange(150, 170))
			want["main"] = concatIDs(want["main"], idRange(150, 170))
		}},
		{"rewrite_data_files of one partition value", func(t *testing.T) {
			deletesBefore := p.queryInt(t, "SELECT count(*) FROM ns.t.delete_files")
			res := p.callRow(t, "CALL system.rewrite_data_files(table => 'ns.t', where => 'category = ''beta''', "+
				"options => map('rewrite-all', 'true'))")
			if n, _ := res["rewritten_data_files_count"].(int64); n == 0 {
				t.Fatalf("nothing rewritten: %v", res)
			}
			t.Logf("rewrite of category beta: %v", res)
			// Delete files of the other partitions stay and still apply.
			if n := p.queryInt(t, "SELECT count(*) FROM ns.t.delete_files"); deleteMode == "merge-on-read" && (n == 0 || n >= deletesBefore) {
				t.Fatalf("%d delete files after a rewrite of one category, %d before", n, deletesBefore)
			}
		}},
		{"expire_snapshots", func(t *testing.T) {
			before := p.queryInt(t, "SELECT count(*) FROM ns.t.snapshots")
			time.Sleep(5 * time.Millisecond) // every snapshot strictly older than the cut-off
			p.callRow(t, "CALL system.expire_snapshots(table => 'ns.t', older_than => ?, retain_last => 1)", time.Now().UTC())
			if after := p.queryInt(t, "SELECT count(*) FROM ns.t.snapshots"); after >= before {
				t.Fatalf("%d snapshots after expiry, %d before", after, before)
			}
		}},
		{"remove_orphan_files", func(t *testing.T) {
			orphan := filepath.Join(tableDir, "data", "orphan-from-a-dead-writer.parquet")
			if err := os.WriteFile(orphan, []byte("not referenced"), 0o644); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-2 * time.Hour)
			if err := os.Chtimes(orphan, old, old); err != nil {
				t.Fatal(err)
			}
			removed := p.strings(t, "CALL system.remove_orphan_files(table => 'ns.t', older_than => ?)", time.Now().Add(-time.Hour).UTC())
			if len(removed) != 1 || !strings.Contains(removed[0], "orphan-from-a-dead-writer.parquet") {
				t.Fatalf("removed %v, want exactly the planted orphan", removed)
			}
			if _, err := os.Stat(orphan); !os.IsNotExist(err) {
				t.Fatalf("the orphan is still there: %v", err)
			}
		}},
		{"rewrite_data_files", func(t *testing.T) {
			res := p.callRow(t, "CALL system.rewrite_data_files(table => 'ns.t', strategy => 'binpack', "+
				"options => map('rewrite-all', 'true', 'target-file-size-bytes', '2048'))")
			if n, _ := res["rewritten_data_files_count"].(int64); n == 0 {
				t.Fatalf("nothing rewritten: %v", res)
			}
			if n := p.queryInt(t, "SELECT count(*) FROM ns.t.delete_files"); n != 0 {
				t.Fatalf("%d delete files remain after the rewrite", n)
			}
		}},
		{"rewrite_manifests", func(t *testing.T) {
			if formatVersion == "3" {
				// Known gap, reported: v3 manifests carry first_row_id.
				t.Skip("icesql's rewrite_manifests refuses format version 3 tables")
			}
			p.callRow(t, "CALL system.rewrite_manifests(table => 'ns.t')")
		}},
		{"two more inserts", func(t *testing.T) {
			beforeInserts = p.queryInt(t, "SELECT snapshot_id FROM ns.t.refs WHERE name = 'main'")
			beforeInsertsMs = p.goTable(t).CurrentSnapshot().TimestampMs
			time.Sleep(5 * time.Millisecond) // distinct commit milliseconds for rollback_to_timestamp
			p.insertIDs(t, "ns.t", idRange(300, 310))
			firstInsert = p.queryInt(t, "SELECT snapshot_id FROM ns.t.refs WHERE name = 'main'")
			p.insertIDs(t, "ns.t", idRange(310, 320))
			secondInsert = p.queryInt(t, "SELECT snapshot_id FROM ns.t.refs WHERE name = 'main'")
			want["main"] = concatIDs(want["main"], idRange(300, 320))
		}},
		{"rollback_to_snapshot", func(t *testing.T) {
			p.callRow(t, "CALL system.rollback_to_snapshot(table => 'ns.t', snapshot_id => ?)", firstInsert)
			want["main"] = without(want["main"], func(i int) bool { return i >= 310 && i < 320 })
		}},
		{"rollback_to_timestamp", func(t *testing.T) {
			// Strictly after beforeInserts and strictly before firstInsert.
			p.callRow(t, "CALL system.rollback_to_timestamp(table => 'ns.t', timestamp => ?)", time.UnixMilli(beforeInsertsMs+1).UTC())
			want["main"] = without(want["main"], func(i int) bool { return i >= 300 && i < 320 })
			if cur := p.queryInt(t, "SELECT snapshot_id FROM ns.t.refs WHERE name = 'main'"); cur != beforeInserts {
				t.Fatalf("main is at %d after rolling back to the time before the inserts, want %d", cur, beforeInserts)
			}
		}},
		{"set_current_snapshot", func(t *testing.T) {
			p.callRow(t, "CALL system.set_current_snapshot(table => 'ns.t', snapshot_id => ?)", secondInsert)
			want["main"] = concatIDs(want["main"], idRange(300, 320))
		}},
		{"cherrypick_snapshot of the branch's write", func(t *testing.T) {
			p.callRow(t, "CALL system.cherrypick_snapshot(table => 'ns.t', snapshot_id => ?)", auditHead)
			want["main"] = concatIDs(want["main"], idRange(200, 210))
		}},
		{"write-audit-publish with fast_forward", func(t *testing.T) {
			mustExec(t, p.db, "ALTER TABLE ns.t CREATE BRANCH wap")
			p.insertIDs(t, "ns.t.branch_wap", idRange(400, 410))
			want["wap"] = concatIDs(want["main"], idRange(400, 410))
			p.check(t, want) // staged: main does not see the branch's rows
			p.callRow(t, "CALL system.fast_forward(table => 'ns.t', branch => 'main', to => 'wap')")
			want["main"] = want["wap"]
		}},
		{"create tag and drop branches", func(t *testing.T) {
			mustExec(t, p.db, "ALTER TABLE ns.t CREATE TAG v2")
			want["v2"] = want["main"]
			mustExec(t, p.db, "ALTER TABLE ns.t DROP BRANCH audit")
			mustExec(t, p.db, "ALTER TABLE ns.t DROP BRANCH wap")
			delete(want, "audit")
			delete(want, "wap")
		}},
		{"expire after dropping branches", func(t *testing.T) {
			time.Sleep(5 * time.Millisecond)
			p.callRow(t, "CALL system.expire_snapshots(table => 'ns.t', older_than => ?, retain_last => 1)", time.Now().UTC())
		}},
		{"iceberg-go appends, then icesql", func(t *testing.T) {
			// Both writers continue on the other's metadata after all the
			// procedures: sequence numbers, snapshot ids and refs carry over.
			var rows [][]any
			for _, i := range idRange(500, 510) {
				rows = append(rows, flatSQLRow(i))
			}
			rec := buildRecord(t, p.sc, rows)
			defer rec.Release()
			goAppend(t, p.goTable(t), rec)
			p.insertIDs(t, "ns.t", idRange(510, 520))
			want["main"] = concatIDs(want["main"], idRange(500, 520))
		}},
	}
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) {
			s.run(t)
			goTbl := p.check(t, want)
			refs, _ := goRefs(goTbl)
			t.Logf("refs %v, %d snapshots", refs, len(goTbl.Metadata().Snapshots()))
		}) {
			return
		}
	}
	// The model holds exactly the refs left at the end.
	refs, _ := goRefs(p.goTable(t))
	var names []string
	for _, r := range refs {
		names = append(names, strings.Fields(r)[0])
	}
	if !slices.Equal(names, []string{"main", "v1", "v2"}) {
		t.Fatalf("refs at the end %v, want main, v1, v2", refs)
	}
}
