package dml_test

import (
	"context"
	"io"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/scan"
)

// liveDeletes plans the table's current snapshot and returns, per data
// file, the delete files that apply to it.
func (l *lake) liveDeletes(name string) map[string][]scan.DeleteFile {
	l.t.Helper()
	t := l.table(name)
	snap := t.Metadata().CurrentSnapshot()
	open := func(p string) (io.ReadCloser, error) { return t.IO().Open(context.Background(), p) }
	tasks, _, err := scan.Plan(context.Background(), open, t.Metadata(), snap.SnapshotID, nil, scan.Options{})
	if err != nil {
		l.t.Fatal(err)
	}
	out := map[string][]scan.DeleteFile{}
	for _, task := range tasks {
		out[task.File.FilePath] = task.Deletes
	}
	return out
}

// checkDVs asserts every data file has at most one delete file, a
// deletion vector referencing it, and returns the vectors' total rows.
func (l *lake) checkDVs(name string) (dvs int, deleted int64) {
	l.t.Helper()
	for path, ds := range l.liveDeletes(name) {
		if len(ds) > 1 {
			l.t.Fatalf("%s has %d delete files", path, len(ds))
		}
		for _, d := range ds {
			f := d.File
			if f.FileFormat != iceberg.FormatPuffin || !datafile.IsDeletionVector(f) || f.ReferencedDataFile == nil || *f.ReferencedDataFile != path {
				l.t.Fatalf("delete file of %s is not its deletion vector: %+v", path, f)
			}
			if f.ContentOffset == nil || f.ContentSizeInBytes == nil {
				l.t.Fatalf("deletion vector without offset and size: %+v", f)
			}
			ps, err := datafile.ReadDeletionVector(context.Background(), l.table(name).IO(), f)
			if err != nil {
				l.t.Fatal(err)
			}
			dvs++
			deleted += int64(len(ps))
		}
	}
	return dvs, deleted
}

func newV3Table(l *lake, name string) {
	l.exec("CREATE TABLE " + name + " (id BIGINT, v INT) TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')")
}

func TestDeletionVectorsThroughSQL(t *testing.T) {
	steps := []struct {
		sql              string
		want             []string
		dvs              int
		deleted          int64
		summaryOperation string
	}{
		{"DELETE FROM t WHERE id = 1", []string{"2 20", "3 30", "4 40", "5 50", "6 60"}, 1, 1, "delete"},
		// A second delete of the same file replaces its vector.
		{"DELETE FROM t WHERE id = 2", []string{"3 30", "4 40", "5 50", "6 60"}, 1, 2, "delete"},
		{"UPDATE t SET v = 0 WHERE id IN (3, 5)", []string{"3 0", "4 40", "5 0", "6 60"}, 2, 4, "overwrite"},
		{"MERGE INTO t USING (SELECT 4 AS id UNION ALL SELECT 6) s ON t.id = s.id WHEN MATCHED AND t.id = 4 THEN DELETE WHEN MATCHED THEN UPDATE SET v = 1",
			[]string{"3 0", "5 0", "6 1"}, 2, 6, "overwrite"},
	}
	l := newLake(t)
	newV3Table(l, "t")
	l.exec("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	l.exec("INSERT INTO t VALUES (4, 40), (5, 50), (6, 60)")
	for _, s := range steps {
		t.Run(s.sql, func(t *testing.T) {
			l.exec(s.sql)
			equalRows(t, "rows", l.rows("t"), s.want)
			var got []string
			rs, err := l.db.Query("SELECT id, v FROM t ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			for rs.Next() {
				var id, v int64
				if err := rs.Scan(&id, &v); err != nil {
					t.Fatal(err)
				}
				got = append(got, formatValue(id)+" "+formatValue(v))
			}
			if err := rs.Close(); err != nil {
				t.Fatal(err)
			}
			equalRows(t, "rows through database/sql", got, s.want)
			dvs, deleted := l.checkDVs("t")
			if dvs != s.dvs || deleted != s.deleted {
				t.Fatalf("%d deletion vectors with %d rows, want %d with %d", dvs, deleted, s.dvs, s.deleted)
			}
			if op := l.summary("t")["operation"]; op != s.summaryOperation {
				t.Fatalf("operation %s, want %s", op, s.summaryOperation)
			}
		})
	}
}

// TestDeletionVectorSiblings: when one of two data files whose vectors
// share a Puffin file changes, only its vector is replaced; the other one
// stays live in the old file.
func TestDeletionVectorSiblings(t *testing.T) {
	l := newLake(t)
	newV3Table(l, "t")
	l.exec("INSERT INTO t VALUES (1, 10), (2, 20)")
	l.exec("INSERT INTO t VALUES (3, 30), (4, 40)")
	l.exec("DELETE FROM t WHERE id IN (1, 3)") // one Puffin file, two vectors
	puffins := map[string]bool{}
	for _, ds := range l.liveDeletes("t") {
		for _, d := range ds {
			puffins[d.File.FilePath] = true
		}
	}
	if len(puffins) != 1 {
		t.Fatalf("%d Puffin files, want 1", len(puffins))
	}
	l.exec("DELETE FROM t WHERE id = 2")
	equalRows(t, "rows", l.rows("t"), []string{"4 40"})
	if dvs, deleted := l.checkDVs("t"); dvs != 2 || deleted != 3 {
		t.Fatalf("%d deletion vectors with %d rows, want 2 with 3", dvs, deleted)
	}
	kept := false
	for _, ds := range l.liveDeletes("t") {
		for _, d := range ds {
			kept = kept || puffins[d.File.FilePath]
		}
	}
	if !kept {
		t.Fatal("the untouched file's vector left its Puffin file")
	}
}

func TestPositionDeletesBecomeDV(t *testing.T) {
	l := newLake(t)
	l.exec("CREATE TABLE t (id BIGINT, v INT) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')")
	l.exec("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	l.exec("DELETE FROM t WHERE id = 1")
	l.exec("ALTER TABLE t SET TBLPROPERTIES ('format-version'='3')")
	l.exec("DELETE FROM t WHERE id = 2")
	equalRows(t, "rows", l.rows("t"), []string{"3 30"})
	if dvs, deleted := l.checkDVs("t"); dvs != 1 || deleted != 2 {
		t.Fatalf("%d deletion vectors with %d rows, want 1 with 2", dvs, deleted)
	}
}
