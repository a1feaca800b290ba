package driver_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// The torture soak: writer processes of every kind (multi-table
// transfers, appends, copy-on-write UPDATEs, merge-on-read MERGEs) run
// against one warehouse while the test SIGKILLs one of them at random
// every fraction of a second and starts a fresh one. Readers in the test
// process check, all the while and at the end, that nothing was lost,
// duplicated or invented and that every transaction stayed atomic.
// It runs only with -torture.duration (.ci/run gives it two minutes).
var tortureDuration = flag.Duration("torture.duration", 0, "run TestTortureSoak for this long (0: skip)")

const (
	envTortureKeys = "ICESQL_TORTURE_KEYS" // first append key of a torture child
	tortureBalRows = 10
	tortureBalSeed = 100
)

// tortureProps lets every writer wait out the others rather than fail.
const tortureProps = "'commit.retry.num-retries'='1000', 'commit.retry.min-wait-ms'='1', 'commit.retry.max-wait-ms'='50'"

func setupTorture(t *testing.T, db *sql.DB) {
	t.Helper()
	setupAccounts(t, db)
	// events also expires its history as it commits (files of expired
	// snapshots removed by the writers), keeping enough snapshots that a
	// check's statement never reads one that is expiring under it.
	mustExec(t, db, "CREATE TABLE events (k BIGINT, p BIGINT) TBLPROPERTIES ("+tortureProps+
		", 'history.expire.on-commit.enabled'='true', 'history.expire.max-snapshot-age-ms'='1', 'history.expire.min-snapshots-to-keep'='50')")
	mustExec(t, db, "CREATE TABLE bal_cow (k BIGINT, v BIGINT) TBLPROPERTIES ("+tortureProps+")")
	mustExec(t, db, "CREATE TABLE bal_mor (k BIGINT, v BIGINT) TBLPROPERTIES ("+tortureProps+
		", 'format-version'='2', 'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read', 'write.delete.mode'='merge-on-read')")
	for _, tbl := range []string{"bal_cow", "bal_mor"} {
		var vals []string
		for k := range tortureBalRows {
			vals = append(vals, fmt.Sprintf("(%d, %d)", k, tortureBalSeed))
		}
		mustExec(t, db, "INSERT INTO "+tbl+" VALUES "+strings.Join(vals, ", "))
	}
}

// retryConflicts runs op until it neither lost its commit nor conflicted
// with a concurrent change to the rows it read (a *ValidationError, which
// the engine never retries itself: the statement must be planned again).
func retryConflicts(op func() error) error {
	for {
		err := op()
		var ve *iceberg.ValidationError
		if err == nil || !(errors.Is(err, iceberg.ErrCommitFailed) || errors.As(err, &ve)) {
			return err
		}
	}
}

// tortureChild is the body of one writer process: three goroutines that
// write until the process is killed. An append is reported on stdout
// once its statement returned, so the parent knows it must be there.
func tortureChild(t *testing.T, db *sql.DB, firstKey int64) {
	ctx := context.Background()
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	fail := func(what string, err error) {
		report("error %s: %v", what, err)
		os.Exit(3)
	}
	var wg sync.WaitGroup
	wg.Go(func() { // multi-table transactions
		for i := int64(0); ; i++ {
			if err := transfer(ctx, db, firstKey+i, i%7+1); err != nil && !errors.Is(err, iceberg.ErrCommitFailed) {
				fail("transfer", err)
			}
		}
	})
	wg.Go(func() { // appends: each key once, never a surfaced conflict
		for i := int64(0); ; i++ {
			k := firstKey + i
			if _, err := db.Exec("INSERT INTO events VALUES (?, ?)", k, k%13); err != nil {
				fail("append", err)
			}
			report("append %d", k)
		}
	})
	wg.Go(func() { // moves inside one table: UPDATE (copy-on-write), MERGE (merge-on-read)
		rng := rand.New(rand.NewPCG(uint64(firstKey), 1))
		for i := 0; ; i++ {
			a, b := rng.IntN(tortureBalRows), rng.IntN(tortureBalRows-1)
			if b >= a {
				b++
			}
			var err error
			if i%2 == 0 {
				err = retryConflicts(func() error {
					_, err := db.Exec("UPDATE bal_cow SET v = CASE WHEN k = ? THEN v - 1 ELSE v + 1 END WHERE k IN (?, ?)", a, a, b)
					return err
				})
			} else {
				err = retryConflicts(func() error {
					_, err := db.Exec(`MERGE INTO bal_mor t USING (SELECT CAST(? AS BIGINT) AS k, CAST(-1 AS BIGINT) AS d UNION ALL SELECT CAST(? AS BIGINT), CAST(1 AS BIGINT)) s
						ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = t.v + s.d`, a, b)
					return err
				})
			}
			if err != nil {
				fail("move", err)
			}
			report("move")
		}
	})
	wg.Wait()
}

// tortureCheck reads every invariant in one statement each: a statement
// sees one instant of every table it names.
func tortureCheck(db *sql.DB) error {
	var sum, debits, credits int64
	if err := db.QueryRow("SELECT (SELECT sum(amount) FROM acct_a) + (SELECT sum(amount) FROM acct_b), (SELECT count(*) FROM acct_a) - 1, (SELECT count(*) FROM acct_b)").Scan(&sum, &debits, &credits); err != nil {
		return err
	}
	if sum != seedBalance || debits != credits {
		return fmt.Errorf("ledger: sum %d (want %d), %d debits, %d credits", sum, seedBalance, debits, credits)
	}
	for _, tbl := range []string{"bal_cow", "bal_mor"} {
		var n, total, keys int64
		if err := db.QueryRow("SELECT count(*), sum(v), count(DISTINCT k) FROM "+tbl).Scan(&n, &total, &keys); err != nil {
			return err
		}
		if n != tortureBalRows || keys != tortureBalRows || total != tortureBalRows*tortureBalSeed {
			return fmt.Errorf("%s: %d rows of %d keys summing to %d, want %d rows summing to %d", tbl, n, keys, total, tortureBalRows, tortureBalRows*tortureBalSeed)
		}
	}
	var dups int64
	if err := db.QueryRow("SELECT count(*) FROM (SELECT k FROM events GROUP BY k HAVING count(*) > 1) d").Scan(&dups); err != nil {
		return err
	}
	if dups != 0 {
		return fmt.Errorf("events: %d keys appended more than once", dups)
	}
	return nil
}

type tortureProc struct {
	cmd      *exec.Cmd
	firstKey int64
	done     chan struct{}
}

func TestTortureSoak(t *testing.T) {
	if *tortureDuration == 0 {
		t.Skip("a soak: run with -torture.duration 2m")
	}
	wh := t.TempDir()
	db := openDB(t, wh)
	setupTorture(t, db)

	var mu sync.Mutex
	reported := map[int64]bool{} // appends whose statement returned
	issued := map[int64]bool{}   // first keys of every process started
	var childErrs []string
	var moves atomic.Int64
	start := func(slot int, gen int) *tortureProc {
		first := int64(slot+1)*1_000_000_000 + int64(gen)*1_000_000
		cmd := childCmd(t, envChild+"=torture", envWarehouse+"="+wh, envTortureKeys+"="+strconv.FormatInt(first, 10))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := &tortureProc{cmd: cmd, firstKey: first, done: make(chan struct{})}
		mu.Lock()
		issued[first] = true
		mu.Unlock()
		go func() {
			defer close(p.done)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				line := sc.Text()
				if k, ok := strings.CutPrefix(line, "append "); ok {
					if n, err := strconv.ParseInt(k, 10, 64); err == nil {
						mu.Lock()
						reported[n] = true
						mu.Unlock()
					}
				} else if line == "move" {
					moves.Add(1)
				} else if strings.HasPrefix(line, "error ") {
					mu.Lock()
					childErrs = append(childErrs, line)
					mu.Unlock()
				}
			}
		}()
		return p
	}
	const procs = 3
	gens := make([]int, procs)
	live := make([]*tortureProc, procs)
	for i := range live {
		live[i] = start(i, 0)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	deadline := time.Now().Add(*tortureDuration)
	kills, checks := 0, 0
	for time.Now().Before(deadline) {
		time.Sleep(time.Duration(100+rng.IntN(900)) * time.Millisecond)
		if err := tortureCheck(db); err != nil {
			t.Fatalf("after %d kills: %v", kills, err)
		}
		checks++
		i := rng.IntN(procs)
		live[i].cmd.Process.Signal(syscall.SIGKILL)
		werr := live[i].cmd.Wait()
		<-live[i].done
		var ee *exec.ExitError
		if !errors.As(werr, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("writer process ended on its own: %v %q", werr, childErrs)
		}
		kills++
		gens[i]++
		live[i] = start(i, gens[i])
	}
	for _, p := range live {
		p.cmd.Process.Signal(syscall.SIGKILL)
		p.cmd.Wait()
		<-p.done
	}
	if len(childErrs) > 0 {
		t.Fatalf("%d writer errors, first: %s", len(childErrs), childErrs[0])
	}
	if err := tortureCheck(db); err != nil {
		t.Fatalf("at the end, after %d kills: %v", kills, err)
	}
	// Appends: every reported key is there, and every key there was sent
	// by some process (a killed one may have committed without reporting).
	rows, err := db.Query("SELECT k FROM events")
	if err != nil {
		t.Fatal(err)
	}
	present := map[int64]bool{}
	for rows.Next() {
		var k int64
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		present[k] = true
		if !issued[k-k%1_000_000] {
			t.Errorf("events holds key %d that no process appended", k)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	lost := 0
	for k := range reported {
		if !present[k] {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acknowledged appends are lost", lost, len(reported))
	}
	var transfers, kept int64
	if err := db.QueryRow("SELECT count(*) FROM acct_b").Scan(&transfers); err != nil {
		t.Fatal(err)
	}
	// Expiry on commit kept the history bounded, whatever the kills.
	if err := db.QueryRow("SELECT count(*) FROM events.snapshots").Scan(&kept); err != nil {
		t.Fatal(err)
	}
	if kept > 50+procs*2 && int64(len(present)) > kept {
		t.Errorf("events keeps %d snapshots after %d appends; expiry on commit keeps 50", kept, len(present))
	}
	t.Logf("%v, %d SIGKILLs, %d checks: %d acknowledged appends (%d rows), %d transfers, %d UPDATE/MERGE moves, %d snapshots of events kept; no violation",
		*tortureDuration, kills, checks, len(reported), len(present), transfers, moves.Load(), kept)
}
