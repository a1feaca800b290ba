// Command transfer moves money between two tables in one transaction:
// debit one, credit the other, and COMMIT swaps both table pointers in a
// single SQLite transaction, so the two tables change together or not at
// all. A transfer that fails half way (here: a credit that breaks a NOT
// NULL column) is rolled back and leaves both tables as they were.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"os"

	_ "github.com/icesql/icesql/driver"
)

func main() {
	dir, err := os.MkdirTemp("", "transfer-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer, warehouse string) error {
	ctx := context.Background()
	db, err := sql.Open("iceberg", warehouse)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE checking (owner STRING NOT NULL, balance DECIMAL(12,2) NOT NULL)",
		"CREATE TABLE savings (owner STRING NOT NULL, balance DECIMAL(12,2) NOT NULL)",
		"INSERT INTO checking VALUES ('ada', 500.00), ('bob', 80.00)",
		"INSERT INTO savings VALUES ('ada', 1000.00), ('bob', 20.00)",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	show := func(label string) error {
		var c, s, total string
		err := db.QueryRowContext(ctx, `SELECT (SELECT sum(balance) FROM checking), (SELECT sum(balance) FROM savings),
			(SELECT sum(balance) FROM checking) + (SELECT sum(balance) FROM savings)`).Scan(&c, &s, &total)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-22s checking=%s savings=%s total=%s\n", label, c, s, total)
		return nil
	}
	if err := show("before:"); err != nil {
		return err
	}

	transfer := func(owner string, amount string, credit string) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE checking SET balance = balance - "+amount+" WHERE owner = ?", owner); err != nil {
			tx.Rollback()
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE savings SET balance = "+credit+" WHERE owner = ?", owner); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}
	if err := transfer("ada", "150.00", "balance + 150.00"); err != nil {
		return err
	}
	if err := show("after transfer:"); err != nil {
		return err
	}
	// The credit sets a NOT NULL column to NULL: the statement fails, the
	// transaction is rolled back, and the debit before it never lands.
	if err := transfer("bob", "50.00", "NULL"); err != nil {
		fmt.Fprintln(w, "failed transfer rolled back: a NULL into savings.balance was refused")
	}
	if err := show("after failed transfer:"); err != nil {
		return err
	}
	var snapsC, snapsS int
	db.QueryRowContext(ctx, "SELECT count(*) FROM checking.snapshots").Scan(&snapsC)
	db.QueryRowContext(ctx, "SELECT count(*) FROM savings.snapshots").Scan(&snapsS)
	fmt.Fprintf(w, "snapshots: checking=%d savings=%d (one insert, one transfer each)\n", snapsC, snapsS)
	return nil
}
