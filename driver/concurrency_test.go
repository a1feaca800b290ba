package driver_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// 64 goroutines sharing one *sql.DB (the shape of a Go service) insert
// into one table with default properties: the engine serialises their
// commits, so none surfaces a conflict and every row lands in its own
// snapshot on one linear history.
func TestOneDBManyWritersNoConflict(t *testing.T) {
	db := openDB(t, t.TempDir())
	db.SetMaxOpenConns(64)
	mustExec(t, db, "CREATE TABLE t (writer INT, n INT)")
	const writers, rounds = 64, 3
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				if _, err := db.Exec("INSERT INTO t VALUES (?, ?)", w, i); err != nil {
					failed.Add(1)
					t.Errorf("writer %d: %v", w, err)
				}
			}
		}()
	}
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d inserts failed", failed.Load())
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t"); n != writers*rounds {
		t.Fatalf("rows = %d, want %d", n, writers*rounds)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t.history WHERE is_current_ancestor"); n != writers*rounds {
		t.Fatalf("linear history has %d snapshots, want %d", n, writers*rounds)
	}
}

// appendProcesses runs procs child processes of this test binary, each
// appending with writers goroutines rounds single-row INSERTs into
// default.t of the warehouse, and returns the errors they reported.
func appendProcesses(t testing.TB, wh string, procs, writers, rounds int) []string {
	t.Helper()
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for p := 0; p < procs; p++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAppendWriterProcess$")
		cmd.Env = append(os.Environ(), "ICESQL_APPEND_WAREHOUSE="+wh,
			fmt.Sprintf("ICESQL_APPEND_JOB=%d,%d,%d", p, writers, rounds))
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	var errs []string
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer process %d: %v\n%s", i, err, outs[i])
		}
		for _, line := range strings.Split(outs[i].String(), "\n") {
			if e, ok := strings.CutPrefix(line, "append error: "); ok {
				errs = append(errs, e)
			}
		}
	}
	return errs
}

// TestAppendWriterProcess is the body of one writer process of
// appendProcesses; it reports each failed INSERT on a line of its own.
func TestAppendWriterProcess(t *testing.T) {
	wh := os.Getenv("ICESQL_APPEND_WAREHOUSE")
	if wh == "" {
		t.Skip("run by appendProcesses")
	}
	var p, writers, rounds int
	if _, err := fmt.Sscanf(os.Getenv("ICESQL_APPEND_JOB"), "%d,%d,%d", &p, &writers, &rounds); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, wh)
	db.SetMaxOpenConns(writers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				if _, err := db.Exec("INSERT INTO t VALUES (?, ?, ?)", p, w, i); err != nil {
					mu.Lock()
					fmt.Printf("append error: %v\n", strings.ReplaceAll(err.Error(), "\n", " "))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}

// 16 writers in each of 4 processes append to one table with default
// properties: the catalog's write lock queues the processes' commits, so
// no append surfaces an error and every one lands exactly once.
func TestProcessesAppendNoErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs, writers, rounds = 4, 16, 2
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE t (p INT, w INT, n INT)")
	start := time.Now()
	errs := appendProcesses(t, wh, procs, writers, rounds)
	elapsed := time.Since(start)
	if len(errs) > 0 {
		t.Fatalf("%d appends failed, first: %s", len(errs), errs[0])
	}
	const total = procs * writers * rounds
	t.Logf("%d commits from %d processes x %d writers in %v (%.0f commits/s)", total, procs, writers, elapsed.Round(time.Millisecond), total/elapsed.Seconds())
	if n := queryInt(t, db, "SELECT count(*) FROM t"); n != total {
		t.Fatalf("rows = %d, want %d", n, total)
	}
	if n := queryInt(t, db, "SELECT count(DISTINCT p * 10000 + w * 100 + n) FROM t"); n != total {
		t.Fatalf("distinct rows = %d, want %d", n, total)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t.history WHERE is_current_ancestor"); n != total {
		t.Fatalf("linear history has %d snapshots, want %d", n, total)
	}
}

// Transfers move amounts between two tables in transactions while
// readers sum both tables in one statement, through a scalar subquery per
// table: every sum is the invariant, never half a transfer.
func TestStatementSeesOneInstant(t *testing.T) {
	wh := t.TempDir()
	setup := openDB(t, wh)
	mustExec(t, setup, "CREATE TABLE acct_a (balance BIGINT)")
	mustExec(t, setup, "CREATE TABLE acct_b (balance BIGINT)")
	mustExec(t, setup, "INSERT INTO acct_a VALUES (1000)")
	mustExec(t, setup, "INSERT INTO acct_b VALUES (1000)")
	const invariant = 2000
	writers := openDB(t, wh)
	readers := openDB(t, wh) // another engine: it reads the catalog, not the writers' memory
	ctx := context.Background()
	var done atomic.Bool
	var wg sync.WaitGroup
	var transfers atomic.Int64
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				tx, err := writers.BeginTx(ctx, nil)
				if err != nil {
					t.Error(err)
					return
				}
				amt := int64(w*100 + i + 1)
				if _, err := tx.Exec("INSERT INTO acct_a VALUES (?)", -amt); err != nil {
					t.Error(err)
				}
				if _, err := tx.Exec("INSERT INTO acct_b VALUES (?)", amt); err != nil {
					t.Error(err)
				}
				if err := tx.Commit(); err != nil {
					t.Errorf("transfer: %v", err)
					continue
				}
				transfers.Add(1)
			}
		}()
	}
	var reads, bad atomic.Int64
	var rwg sync.WaitGroup
	for r := 0; r < 3; r++ {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			for !done.Load() {
				var sum int64
				err := readers.QueryRow("SELECT (SELECT sum(balance) FROM acct_a) + (SELECT sum(balance) FROM acct_b)").Scan(&sum)
				if err != nil {
					t.Error(err)
					return
				}
				reads.Add(1)
				if sum != invariant {
					bad.Add(1)
					t.Errorf("a statement saw a total of %d, want %d", sum, invariant)
				}
			}
		}()
	}
	wg.Wait()
	done.Store(true)
	rwg.Wait()
	if transfers.Load() != 60 {
		t.Fatalf("%d of 60 transfers committed", transfers.Load())
	}
	if n := queryInt(t, setup, "SELECT (SELECT sum(balance) FROM acct_a) + (SELECT sum(balance) FROM acct_b)"); n != invariant {
		t.Fatalf("final total %d", n)
	}
	t.Logf("%d reads, %d saw a wrong total", reads.Load(), bad.Load())
}

// 50 prepared INSERTs in one transaction commit as one snapshot with
// three metadata files (manifest, manifest list, metadata.json), and
// read their own writes meanwhile.
func TestTxnAppendsCommitAsOneSnapshot(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE t (id BIGINT, s STRING)")
	mustExec(t, db, "INSERT INTO t VALUES (0, 'seed')")
	metaDir := filepath.Join(wh, "default.db", "t", "metadata")
	before := countFiles(t, metaDir)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.Prepare("INSERT INTO t VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 50; i++ {
		if _, err := stmt.Exec(i, "row "+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	var seen int64
	if err := tx.QueryRow("SELECT count(*) FROM t").Scan(&seen); err != nil || seen != 51 {
		t.Fatalf("inside the transaction: count %d, %v; want 51", seen, err)
	}
	mustExecTx(t, tx, "DELETE FROM t WHERE id = 0")
	mustExecTx(t, tx, "INSERT INTO t VALUES (51, 'after the delete')")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t"); n != 51 {
		t.Fatalf("rows = %d, want 51", n)
	}
	// seed, the 50 appends, the delete, the last append.
	if n := queryInt(t, db, "SELECT count(*) FROM t.snapshots"); n != 4 {
		t.Fatalf("snapshots = %d, want 4", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM t.snapshots WHERE summary['added-records'] = '50'"); n != 1 {
		t.Fatalf("no snapshot added the 50 rows")
	}
	if got := countFiles(t, metaDir) - before; got > 3*3 {
		t.Fatalf("%d new metadata files for three snapshots", got)
	}

	// 50 appends alone: exactly three metadata files.
	before = countFiles(t, metaDir)
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		mustExecTx(t, tx, "INSERT INTO t VALUES (?, 'x')", 100+i)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := countFiles(t, metaDir) - before; got != 3 {
		t.Fatalf("%d new metadata files, want 3", got)
	}
}

func mustExecTx(t *testing.T, tx *sql.Tx, q string, args ...any) {
	t.Helper()
	if _, err := tx.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// A transaction whose table another session appended to is applied again
// at COMMIT; what it staged for the old version is removed, so every
// manifest list left is a snapshot's.
func TestReappliedTxnLeavesNoStagedFiles(t *testing.T) {
	wh := t.TempDir()
	a := openDB(t, wh)
	b := openDB(t, wh)
	mustExec(t, a, "CREATE TABLE t (id BIGINT)")
	mustExec(t, a, "INSERT INTO t VALUES (0)")
	tx, err := a.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustExecTx(t, tx, "INSERT INTO t VALUES (1)")
	mustExecTx(t, tx, "DELETE FROM t WHERE id = 0")
	mustExecTx(t, tx, "INSERT INTO t VALUES (2)")
	mustExec(t, b, "INSERT INTO t VALUES (10)")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, a, "SELECT count(*) FROM t"); n != 3 {
		t.Fatalf("rows = %d, want 3", n)
	}
	lists, err := filepath.Glob(filepath.Join(wh, "default.db", "t", "metadata", "snap-*.avro"))
	if err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, a, "SELECT count(*) FROM t.snapshots"); int(n) != len(lists) {
		t.Fatalf("%d manifest lists for %d snapshots", len(lists), n)
	}
}
