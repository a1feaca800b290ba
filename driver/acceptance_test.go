package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec"
)

// Environment of a re-executed test binary (see TestChildProcess).
const (
	envChild     = "ICESQL_DRIVER_CHILD"     // "transfer" or "kill"
	envWarehouse = "ICESQL_DRIVER_WAREHOUSE" // warehouse directory
	envCount     = "ICESQL_DRIVER_COUNT"     // transfers to make
	envKey       = "ICESQL_DRIVER_KEY"       // first transfer key
	envKillAt    = "ICESQL_DRIVER_KILL_AT"   // a table.FaultStep
)

const seedBalance = 1000

var transfersPerWorker = flag.Int("transfers", 4, "transfers per goroutine and per process in TestConcurrentTransfers")

// setupAccounts creates two ledgers; acct_a starts with the whole balance.
func setupAccounts(t *testing.T, db *sql.DB) {
	t.Helper()
	props := "TBLPROPERTIES ('commit.retry.num-retries'='200', 'commit.retry.min-wait-ms'='2', 'commit.retry.max-wait-ms'='100')"
	mustExec(t, db, "CREATE TABLE acct_a (k BIGINT, amount BIGINT) "+props)
	mustExec(t, db, "CREATE TABLE acct_b (k BIGINT, amount BIGINT) "+props)
	mustExec(t, db, "INSERT INTO acct_a VALUES (0, ?)", seedBalance)
}

// transfer debits acct_a and credits acct_b in one transaction, starting
// over when a concurrent commit exhausts the commit retries.
func transfer(ctx context.Context, db *sql.DB, key, amount int64) error {
	for attempt := 1; ; attempt++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err = tx.Exec("INSERT INTO acct_a VALUES (?, ?)", key, -amount); err == nil {
			_, err = tx.Exec("INSERT INTO acct_b VALUES (?, ?)", key, amount)
		}
		if err != nil {
			tx.Rollback()
			return err
		}
		err = tx.Commit()
		if err == nil || !errors.Is(err, iceberg.ErrCommitFailed) || attempt == 20 {
			return err
		}
	}
}

// ledger is what one pinned read sees of both tables.
type ledger struct{ sumA, sumB, rowsA, rowsB int64 }

func readLedger(ctx context.Context, db *sql.DB) (ledger, error) {
	var l ledger
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSnapshot, ReadOnly: true})
	if err != nil {
		return l, err
	}
	defer tx.Rollback()
	var a, b sql.NullInt64
	if err := tx.QueryRow("SELECT sum(amount), count(*) FROM acct_a").Scan(&a, &l.rowsA); err != nil {
		return l, err
	}
	if err := tx.QueryRow("SELECT sum(amount), count(*) FROM acct_b").Scan(&b, &l.rowsB); err != nil {
		return l, err
	}
	l.sumA, l.sumB = a.Int64, b.Int64
	return l, tx.Commit()
}

func (l ledger) check() error {
	if l.sumA+l.sumB != seedBalance {
		return fmt.Errorf("sum over both tables = %d, want %d (%+v)", l.sumA+l.sumB, seedBalance, l)
	}
	if l.rowsA-1 != l.rowsB {
		return fmt.Errorf("a transfer landed in one table only: %d debits, %d credits", l.rowsA-1, l.rowsB)
	}
	return nil
}

func childCmd(t *testing.T, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// Transfers from 8 goroutines and 2 processes land in both tables or
// neither, and every pinned read of both tables sees the same total.
func TestConcurrentTransfers(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	db := openDB(t, wh)
	setupAccounts(t, db)
	perWorker := *transfersPerWorker
	var children []*exec.Cmd
	outputs := make([]*lockedBuffer, 2)
	for i := range 2 {
		outputs[i] = &lockedBuffer{}
		cmd := childCmd(t, envChild+"=transfer", envWarehouse+"="+wh, envCount+"="+strconv.Itoa(perWorker), envKey+"="+strconv.Itoa(1_000_000*(i+1)))
		cmd.Stdout, cmd.Stderr = outputs[i], outputs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children = append(children, cmd)
	}
	var reads atomic.Int64
	stop := make(chan struct{})
	readerDone := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				readerDone <- nil
				return
			default:
			}
			l, err := readLedger(ctx, db)
			if err == nil {
				err = l.check()
			}
			if err != nil {
				readerDone <- err
				return
			}
			reads.Add(1)
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range perWorker {
				if err := transfer(ctx, db, int64(g*1000+i+1), int64(i%7+1)); err != nil {
					errs <- fmt.Errorf("goroutine %d transfer %d: %w", g, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i, cmd := range children {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, outputs[i].String())
		}
	}
	close(stop)
	if err := <-readerDone; err != nil {
		t.Fatal(err)
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	l, err := readLedger(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.check(); err != nil {
		t.Fatal(err)
	}
	if want := int64(10 * perWorker); l.rowsB != want {
		t.Fatalf("%d transfers landed, want %d", l.rowsB, want)
	}
	if reads.Load() == 0 {
		t.Fatal("the reader never completed a read")
	}
	t.Logf("%d transfers, %d consistent pinned reads", l.rowsB, reads.Load())
}

type lockedBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

// TestChildProcess is the body of the re-executed test binary.
func TestChildProcess(t *testing.T) {
	mode := os.Getenv(envChild)
	if mode == "" {
		t.Skip("runs only as a child process")
	}
	ctx := context.Background()
	wh := os.Getenv(envWarehouse)
	switch mode {
	case "transfer":
		db := openDB(t, wh)
		n, _ := strconv.Atoi(os.Getenv(envCount))
		key, _ := strconv.ParseInt(os.Getenv(envKey), 10, 64)
		for i := range n {
			if err := transfer(ctx, db, key+int64(i), int64(i%5+1)); err != nil {
				t.Fatalf("transfer %d: %v", i, err)
			}
		}
	case "torture":
		first, _ := strconv.ParseInt(os.Getenv(envTortureKeys), 10, 64)
		tortureChild(t, openDB(t, wh), first)
	case "kill":
		e, err := sqlexec.Open(ctx, sqlexec.Config{Warehouse: wh})
		if err != nil {
			t.Fatal(err)
		}
		killAt := table.FaultStep(os.Getenv(envKillAt))
		e.Env().Faults = &table.Faults{Hook: func(step table.FaultStep, ident table.Identifier) error {
			// After-metadata fires per table: die once the last table's
			// metadata.json is written, right before the pointer swap.
			if step == killAt && (step != table.FaultAfterMetadata || ident.Name == "acct_b") {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			return nil
		}}
		db := sql.OpenDB(driver.NewEngineConnector(e))
		defer db.Close()
		if err := transfer(ctx, db, 77, 10); err != nil {
			t.Fatal(err)
		}
		t.Fatal("the commit finished without reaching the kill point")
	}
}

// A process killed with SIGKILL in the middle of COMMIT leaves both
// tables at their previous state (killed before the swap) or both at the
// new state (killed after it).
func TestKillDuringCommit(t *testing.T) {
	tests := []struct {
		step      table.FaultStep
		committed bool
	}{
		{table.FaultAfterMetadata, false},
		{table.FaultAfterSwap, true},
	}
	for _, tc := range tests {
		t.Run(string(tc.step), func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			db := openDB(t, wh)
			setupAccounts(t, db)
			cmd := childCmd(t, envChild+"=kill", envWarehouse+"="+wh, envKillAt+"="+string(tc.step))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child was not killed: %v\n%s", err, out)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("child ended with %v, want SIGKILL\n%s", err, out)
			}
			l, err := readLedger(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.check(); err != nil {
				t.Fatal(err)
			}
			want := int64(0)
			if tc.committed {
				want = 1
			}
			if l.rowsB != want {
				t.Fatalf("after the kill %d transfers visible, want %d", l.rowsB, want)
			}
			// The catalog is usable afterwards.
			if err := transfer(ctx, db, 78, 1); err != nil {
				t.Fatal(err)
			}
			if l, err = readLedger(ctx, db); err != nil || l.check() != nil || l.rowsB != want+1 {
				t.Fatalf("after a new transfer: %+v %v", l, err)
			}
			metaFiles, _ := filepath.Glob(filepath.Join(wh, "default.db", "acct_b", "metadata", "*.metadata.json"))
			if len(metaFiles) == 0 {
				t.Fatal("no metadata files")
			}
		})
	}
}

// Two transactions overwrite the same partition: under serializable the
// second to commit fails with *iceberg.ValidationError, and nothing of it
// is visible or left on disk.
func TestConflictingOverwritesSerializable(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE t (id BIGINT, v BIGINT, p STRING) PARTITIONED BY (p)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 10, 'x'), (2, 20, 'x'), (3, 30, 'y')")
	serializable := &sql.TxOptions{Isolation: sql.LevelSerializable}
	tx1, err := db.BeginTx(ctx, serializable)
	if err != nil {
		t.Fatal(err)
	}
	tx2, err := db.BeginTx(ctx, serializable)
	if err != nil {
		t.Fatal(err)
	}
	overwrite := "INSERT OVERWRITE t SELECT id, v + ?, p FROM t WHERE p = 'x'"
	if _, err := tx1.Exec(overwrite, 1); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(wh, "default.db", "t", "data")
	before := countTree(t, dataDir)
	if _, err := tx2.Exec(overwrite, 100); err != nil {
		t.Fatal(err)
	}
	if got := txInt(t, tx2, "SELECT sum(v) FROM t"); got != 30+10+20+200 {
		t.Fatalf("tx2 reads its own overwrite: sum %d", got)
	}
	if err := tx1.Commit(); err != nil {
		t.Fatal(err)
	}
	err = tx2.Commit()
	var verr *iceberg.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("second commit: %v, want *iceberg.ValidationError", err)
	}
	if got := queryInt(t, db, "SELECT sum(v) FROM t"); got != 30+11+21 {
		t.Fatalf("sum = %d, want tx1's result %d", got, 30+11+21)
	}
	if got := countTree(t, dataDir); got != before {
		t.Fatalf("the failed transaction left %d data files", got-before)
	}
}

// UPDATE in two serializable transactions on the same rows: the second
// commit fails (row-level DML, when the session supports it).
func TestConflictingUpdatesSerializable(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (id BIGINT, v BIGINT)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 10), (2, 20)")
	serializable := &sql.TxOptions{Isolation: sql.LevelSerializable}
	tx1, _ := db.BeginTx(ctx, serializable)
	tx2, _ := db.BeginTx(ctx, serializable)
	defer tx1.Rollback()
	defer tx2.Rollback()
	if _, err := tx1.Exec("UPDATE t SET v = v + 1 WHERE id = 1"); err != nil {
		if errors.Is(err, sqlexec.ErrNotSupported) {
			t.Skip("UPDATE not supported yet")
		}
		t.Fatal(err)
	}
	if got := queryInt(t, db, "SELECT sum(v) FROM t"); got != 30 {
		t.Fatalf("an UPDATE inside a transaction is visible outside: sum %d", got)
	}
	if _, err := tx2.Exec("UPDATE t SET v = v + 100 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	if err := tx1.Commit(); err != nil {
		t.Fatal(err)
	}
	var verr *iceberg.ValidationError
	if err := tx2.Commit(); !errors.As(err, &verr) {
		t.Fatalf("second commit: %v, want *iceberg.ValidationError", err)
	}
	if got := queryInt(t, db, "SELECT sum(v) FROM t"); got != 31 {
		t.Fatalf("sum = %d, want 31", got)
	}
}

func countTree(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// The transaction's isolation level overrides the table's: a concurrent
// append of a row matching an UPDATE's filter fails the UPDATE under
// serializable and is allowed under snapshot isolation.
func TestIsolationLevelOverridesTable(t *testing.T) {
	tests := []struct {
		level    sql.IsolationLevel
		conflict bool
	}{
		{sql.LevelSerializable, true},
		{sql.LevelSnapshot, false},
		{sql.LevelRepeatableRead, false},
	}
	for _, tc := range tests {
		t.Run(tc.level.String(), func(t *testing.T) {
			ctx := context.Background()
			db := openDB(t, t.TempDir())
			// The table's property is the opposite of the requested level.
			opposite := "serializable"
			if tc.level == sql.LevelSerializable {
				opposite = "snapshot"
			}
			mustExec(t, db, "CREATE TABLE t (id BIGINT, v BIGINT) TBLPROPERTIES ('write.update.isolation-level'='"+opposite+"')")
			mustExec(t, db, "INSERT INTO t VALUES (1, 10)")
			tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: tc.level})
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.Exec("UPDATE t SET v = v + 1 WHERE id = 1"); err != nil {
				if errors.Is(err, sqlexec.ErrNotSupported) {
					t.Skip("UPDATE not supported yet")
				}
				t.Fatal(err)
			}
			mustExec(t, db, "INSERT INTO t VALUES (1, 100)")
			err = tx.Commit()
			var verr *iceberg.ValidationError
			if tc.conflict != errors.As(err, &verr) {
				t.Fatalf("commit: %v (conflict expected: %v)", err, tc.conflict)
			}
			want := int64(11 + 100)
			if tc.conflict {
				want = 10 + 100
			}
			if got := queryInt(t, db, "SELECT sum(v) FROM t"); got != want {
				t.Fatalf("sum = %d, want %d", got, want)
			}
		})
	}
}
