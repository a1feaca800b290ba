// Command merge_isolation races a MERGE against an append, under the two
// isolation levels Iceberg defines for row-level writes.
//
// An accounts table holds (1, 100.0), (2, 200.0), (3, 300.0). A MERGE adds
// the amounts of a delta table to every matched balance. Before the MERGE
// commits, another connection appends (4, 400.0). The MERGE runs inside a
// transaction so the interleaving is exact: its changes are staged, the
// append lands, then COMMIT validates the MERGE against it.
//
//   - serializable (the default): the append added a data file that could
//     hold rows the MERGE's condition matches, so COMMIT fails with an
//     *iceberg.ValidationError naming that file, and nothing of the MERGE is
//     visible;
//   - snapshot: only conflicting deletes fail a commit, so the MERGE lands
//     on top of the append.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
)

func main() {
	dir, err := os.MkdirTemp("", "merge-isolation-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer, dir string) error {
	for _, level := range []string{iceberg.IsolationSerializable, iceberg.IsolationSnapshot} {
		if err := race(w, filepath.Join(dir, level), level); err != nil {
			return err
		}
	}
	return nil
}

func race(w io.Writer, warehouse, level string) error {
	ctx := context.Background()
	db, err := sql.Open("iceberg", warehouse)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range []string{
		fmt.Sprintf(`CREATE TABLE accounts (account BIGINT NOT NULL, balance DOUBLE)
			TBLPROPERTIES ('write.merge.isolation-level' = '%s')`, level),
		"INSERT INTO accounts VALUES (1, 100.0), (2, 200.0), (3, 300.0)",
		"CREATE TABLE delta (account BIGINT NOT NULL, amount DOUBLE)",
		"INSERT INTO delta VALUES (1, 5.0), (2, 5.0), (3, 5.0)",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}

	merger, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer merger.Close()
	tx, err := merger.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `MERGE INTO accounts t USING delta d ON t.account = d.account
		WHEN MATCHED THEN UPDATE SET balance = t.balance + d.amount`); err != nil {
		return err
	}
	// Meanwhile another connection appends.
	if _, err := db.ExecContext(ctx, "INSERT INTO accounts VALUES (4, 400.0)"); err != nil {
		return err
	}
	err = tx.Commit()
	fmt.Fprintf(w, "%s: ", level)
	var verr *iceberg.ValidationError
	switch {
	case errors.As(err, &verr):
		fmt.Fprintf(w, "MERGE failed: *iceberg.ValidationError (%d conflicting file, isolation %s)\n", len(verr.ConflictingFiles), verr.IsolationLevel)
	case err != nil:
		return err
	default:
		fmt.Fprintln(w, "MERGE committed")
	}

	rows, err := db.QueryContext(ctx, "SELECT account, balance FROM accounts ORDER BY account")
	if err != nil {
		return err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a int64
		var b float64
		if err := rows.Scan(&a, &b); err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("(%d, %.1f)", a, b))
	}
	fmt.Fprintf(w, "  accounts: %s\n", strings.Join(out, " "))
	return rows.Err()
}
