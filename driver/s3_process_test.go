package driver_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Processes on "different machines" (separate engines, caches and
// catalog pools; nothing local shared but the test's own bookkeeping)
// write the same tables through Postgres and S3: appenders in two
// processes, and transfers between two tables in a third while this
// process reads both in one statement. No row is lost, invented or
// duplicated, every read sees the transfers' invariant, and no append
// surfaces an error.
func TestS3ProcessesShareTables(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dsn, _ := s3DSN(t)
	db := openDB(t, dsn)
	mustExec(t, db, "CREATE TABLE t (p INT, w INT, n INT)")
	mustExec(t, db, "CREATE TABLE acct_a (balance BIGINT)")
	mustExec(t, db, "CREATE TABLE acct_b (balance BIGINT)")
	mustExec(t, db, "INSERT INTO acct_a VALUES (1000)")
	mustExec(t, db, "INSERT INTO acct_b VALUES (1000)")
	const invariant = 2000

	transfer := exec.Command(os.Args[0], "-test.run=^TestTransferProcess$")
	transfer.Env = append(os.Environ(), "ICESQL_TRANSFER_DSN="+dsn, "ICESQL_TRANSFER_N=10")
	tout := &strings.Builder{}
	transfer.Stdout, transfer.Stderr = tout, tout
	if err := transfer.Start(); err != nil {
		t.Fatal(err)
	}
	readDone := make(chan [2]int64)
	stop := make(chan struct{})
	go func() {
		var reads, bad int64
		for {
			select {
			case <-stop:
				readDone <- [2]int64{reads, bad}
				return
			default:
			}
			var sum int64
			if err := db.QueryRow("SELECT (SELECT sum(balance) FROM acct_a) + (SELECT sum(balance) FROM acct_b)").Scan(&sum); err != nil {
				t.Error(err)
				readDone <- [2]int64{reads, bad}
				return
			}
			reads++
			if sum != invariant {
				bad++
			}
		}
	}()

	const procs, writers, rounds = 2, 3, 2
	errs := appendProcesses(t, dsn, procs, writers, rounds)
	terr := transfer.Wait()
	close(stop)
	rb := <-readDone
	if terr != nil || strings.Contains(tout.String(), "transfer error") {
		t.Fatalf("transfer process: %v\n%s", terr, tout)
	}
	if len(errs) > 0 {
		t.Fatalf("%d appends failed, first: %s", len(errs), errs[0])
	}
	const total = procs * writers * rounds
	if n := queryInt(t, db, "SELECT count(*) FROM t"); n != total {
		t.Fatalf("rows = %d, want %d", n, total)
	}
	if n := queryInt(t, db, "SELECT count(DISTINCT p * 10000 + w * 100 + n) FROM t"); n != total {
		t.Fatalf("distinct rows = %d, want %d", n, total)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM acct_a"); n != 1+10 {
		t.Fatalf("acct_a has %d rows, want 11", n)
	}
	if n := queryInt(t, db, "SELECT (SELECT sum(balance) FROM acct_a) + (SELECT sum(balance) FROM acct_b)"); n != invariant {
		t.Fatalf("final total %d", n)
	}
	if rb[1] > 0 {
		t.Fatalf("%d of %d reads saw a total other than %d", rb[1], rb[0], invariant)
	}
	t.Logf("%d appends from %d processes, 10 transfers, %d consistent reads", total, procs, rb[0])
}

// TestTransferProcess is the body of the transfer process of
// TestS3ProcessesShareTables: N transactions over two tables.
func TestTransferProcess(t *testing.T) {
	dsn := os.Getenv("ICESQL_TRANSFER_DSN")
	if dsn == "" {
		t.Skip("run by TestS3ProcessesShareTables")
	}
	var n int
	fmt.Sscan(os.Getenv("ICESQL_TRANSFER_N"), &n)
	db := openDB(t, dsn)
	for i := range n {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		amt := int64(i + 1)
		if _, err := tx.Exec("INSERT INTO acct_a VALUES (?)", -amt); err != nil {
			fmt.Printf("transfer error: %v\n", err)
			tx.Rollback()
			continue
		}
		if _, err := tx.Exec("INSERT INTO acct_b VALUES (?)", amt); err != nil {
			fmt.Printf("transfer error: %v\n", err)
			tx.Rollback()
			continue
		}
		if err := tx.Commit(); err != nil {
			fmt.Printf("transfer error: %v\n", err)
		}
	}
}
