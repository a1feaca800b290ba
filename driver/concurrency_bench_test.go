package driver_test

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

func benchDB(b *testing.B, wh string) *sql.DB {
	b.Helper()
	db, err := sql.Open("iceberg", wh)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func benchExec(b *testing.B, db *sql.DB, q string, args ...any) {
	b.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		b.Fatalf("%s: %v", q, err)
	}
}

// BenchmarkOneDBParallelInserts: single-row INSERTs from 32 goroutines
// sharing one *sql.DB into one table (commits/s; errors fail it).
func BenchmarkOneDBParallelInserts(b *testing.B) {
	db := benchDB(b, b.TempDir())
	benchExec(b, db, "CREATE TABLE t (id BIGINT)")
	var n atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := db.Exec("INSERT INTO t VALUES (?)", n.Add(1)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkProcessesAppend: 4 processes x 16 writers append single rows
// with default properties (commits/s including process start; errors
// fail it).
func BenchmarkProcessesAppend(b *testing.B) {
	const procs, writers = 4, 16
	wh := b.TempDir()
	db := benchDB(b, wh)
	benchExec(b, db, "CREATE TABLE t (p INT, w INT, n INT)")
	rounds := max(1, b.N/(procs*writers))
	b.ResetTimer()
	if errs := appendProcesses(b, wh, procs, writers, rounds); len(errs) > 0 {
		b.Fatalf("%d appends failed, first: %s", len(errs), errs[0])
	}
	b.ReportMetric(float64(procs*writers*rounds)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkTwoTableStatement: one statement summing two tables, which
// resolves both from one catalog read.
func BenchmarkTwoTableStatement(b *testing.B) {
	db := benchDB(b, b.TempDir())
	benchExec(b, db, "CREATE TABLE acct_a (balance BIGINT)")
	benchExec(b, db, "CREATE TABLE acct_b (balance BIGINT)")
	benchExec(b, db, "INSERT INTO acct_a VALUES (1000)")
	benchExec(b, db, "INSERT INTO acct_b VALUES (1000)")
	for b.Loop() {
		var sum int64
		if err := db.QueryRow("SELECT (SELECT sum(balance) FROM acct_a) + (SELECT sum(balance) FROM acct_b)").Scan(&sum); err != nil || sum != 2000 {
			b.Fatal(sum, err)
		}
	}
}

// BenchmarkTxn50Inserts: 50 single-row INSERTs in one transaction,
// committed as one snapshot.
func BenchmarkTxn50Inserts(b *testing.B) {
	db := benchDB(b, b.TempDir())
	benchExec(b, db, "CREATE TABLE t (id BIGINT)")
	for b.Loop() {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 50; i++ {
			if _, err := tx.Exec("INSERT INTO t VALUES (?)", i); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReappliedTxnCommit: a transaction's COMMIT after another
// writer appended to its table, so it is applied again (and its staged
// files removed).
func BenchmarkReappliedTxnCommit(b *testing.B) {
	wh := b.TempDir()
	a, other := benchDB(b, wh), benchDB(b, wh)
	benchExec(b, a, "CREATE TABLE t (id BIGINT)")
	for b.Loop() {
		tx, err := a.Begin()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec("INSERT INTO t VALUES (1)"); err != nil {
			b.Fatal(err)
		}
		benchExec(b, other, "INSERT INTO t VALUES (2)")
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommitLatencyHistory: one single-row INSERT into a table whose
// history has 10, 1,000 or 10,000 snapshots: with default properties (all
// kept, so metadata.json grows with them), all kept with
// write.metadata.compression-codec=gzip (the history's compressed runs
// are copied, so only the file's size grows), and with
// history.expire.on-commit.enabled keeping the last 10 (each commit
// also expires the snapshot that falls out of them and its files, so the
// history a commit rewrites stays bounded). cpu-ms/op is the process's CPU
// time per commit, steadier than wall time on a shared machine.
func BenchmarkCommitLatencyHistory(b *testing.B) {
	cases := []struct{ name, props string }{
		{"keep-all", ""},
		{"keep-all-gzip", " TBLPROPERTIES ('write.metadata.compression-codec'='gzip')"},
		{"expire-on-commit", " TBLPROPERTIES ('history.expire.on-commit.enabled'='true', " +
			"'history.expire.max-snapshot-age-ms'='0', 'history.expire.min-snapshots-to-keep'='10')"},
	}
	for _, c := range cases {
		for _, n := range []int{10, 1000, 10000} {
			b.Run(fmt.Sprintf("%s/snapshots=%d", c.name, n), func(b *testing.B) {
				wh := b.TempDir()
				db := benchDB(b, wh)
				benchExec(b, db, "CREATE TABLE t (id BIGINT)"+c.props)
				benchExec(b, db, "INSERT INTO t VALUES (0)")
				addHistory(b, wh, n-1)
				benchExec(b, db, "INSERT INTO t VALUES (0)") // expires, when on
				i, cpu := 0, processCPU()
				for b.Loop() {
					i++
					benchExec(b, db, "INSERT INTO t VALUES (?)", i)
				}
				b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(i), "cpu-ms/op")
				var snaps int
				if err := db.QueryRow("SELECT count(*) FROM t.snapshots").Scan(&snaps); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(snaps), "snapshots-after")
				b.ReportMetric(float64(newestMetadataSize(b, filepath.Join(wh, "default.db", "t", "metadata"))), "metadata-bytes")
			})
		}
	}
}

// newestMetadataSize is the size of the metadata.json of the highest
// version in dir (its names start with the zero-padded version).
func newestMetadataSize(b *testing.B, dir string) int64 {
	b.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.metadata.json"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no metadata.json in %s (%v)", dir, err)
	}
	slices.Sort(files)
	fi, err := os.Stat(files[len(files)-1])
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}

// addHistory gives default.t n more snapshots in one metadata commit, each
// a copy of the current one (same manifest list) a second after the
// previous and the last a second ago, so building a long history does not
// take n real commits.
func addHistory(b *testing.B, wh string, n int) {
	b.Helper()
	ctx := context.Background()
	cat, err := sqlite.Open(ctx, filepath.Join(wh, "catalog.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	env := &table.Env{Catalog: cat.TableCatalog(), IO: &fileio.Local{}}
	t, err := table.Load(ctx, env, table.Identifier{Namespace: []string{"default"}, Name: "t"})
	if err != nil {
		b.Fatal(err)
	}
	m := t.Metadata()
	cur := m.CurrentSnapshot()
	seq := m.LastSequenceNumber()
	start := time.Now().Add(-time.Duration(n) * time.Second).UnixMilli()
	var ups []iceberg.Update
	parent := cur.SnapshotID
	for i := 0; i < n; i++ {
		seq++
		s := *cur
		s.SnapshotID = cur.SnapshotID + int64(i) + 1
		p := parent
		s.ParentSnapshotID = &p
		s.SequenceNumber = seq
		s.TimestampMs = start + int64(i)*1000
		s.Summary = maps.Clone(cur.Summary)
		ups = append(ups, iceberg.AddSnapshotUpdate{Snapshot: &s}, iceberg.SetSnapshotRefUpdate{Name: "main", Ref: iceberg.NewBranch(s.SnapshotID)})
		parent = s.SnapshotID
	}
	if _, err := t.CommitUpdates(ctx, ups); err != nil {
		b.Fatal(err)
	}
}
