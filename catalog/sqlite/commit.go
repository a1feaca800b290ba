package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/mattn/go-sqlite3"
)

// swapSQL is Java's DO_COMMIT_SQL; V1 adds its table-type filter.
const swapSQL = "UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ? " +
	"WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?"

// TableCommit is one pointer swap of CommitTables.
type TableCommit = catalog.TableCommit

func (c *Catalog) swapStatement() string { return swapSQL + c.onlyTables() }

func validateCommit(tc TableCommit) error {
	if err := validateIdent(tc.Ident); err != nil {
		return err
	}
	if tc.Expected == "" || tc.New == "" {
		return wrapf(ErrInvalidArgument, "empty expected or new metadata location")
	}
	return nil
}

// CommitTable swaps the table's metadata location from expectedLocation to
// newLocation if, and only if, it is still expectedLocation.
//
// Errors: iceberg.ErrCommitFailed when the pointer moved (or the database
// stayed locked) and nothing changed: refresh and retry.
// iceberg.ErrCommitStateUnknown when the swap was sent but its outcome
// cannot be known (I/O error, full disk, corruption, cancellation while
// running): the caller must not delete newLocation and must re-read the
// table to find out.
func (c *Catalog) CommitTable(ctx context.Context, ident Identifier, expectedLocation, newLocation string) error {
	const op = "commit table"
	name := ident.String()
	if err := validateCommit(TableCommit{Ident: ident, Expected: expectedLocation, New: newLocation}); err != nil {
		return newError(op, name, err)
	}
	if c.readOnly {
		return newError(op, name, ErrReadOnly)
	}
	if h := c.hooks.BeforeSwap; h != nil {
		if err := h(ctx, ident); err != nil {
			return newError(op, name, err)
		}
	}
	w, err := c.writer(ctx)
	if err != nil {
		return newError(op, name, notApplied(err))
	}
	conn, err := w.Conn(ctx)
	if err != nil {
		return newError(op, name, notApplied(err))
	}
	defer conn.Close()
	if err := ctx.Err(); err != nil {
		return newError(op, name, err)
	}
	// From here on the statement may reach the database.
	res, err := conn.ExecContext(ctx, c.swapStatement(),
		newLocation, expectedLocation, c.name, joinNamespace(ident.Namespace), ident.Name, expectedLocation)
	if err := swapOutcome(res, err, stale(ident, expectedLocation)); err != nil {
		return newError(op, name, err)
	}
	return c.afterSwap(ctx, op, ident)
}

// CommitTables swaps several table pointers in one SQLite transaction: all
// of them or none. If any table's pointer is not at its Expected location,
// nothing changes and the error wraps iceberg.ErrCommitFailed and names
// that table. Errors follow CommitTable; the outcome is unknown only when
// the COMMIT itself fails with an I/O-class error.
func (c *Catalog) CommitTables(ctx context.Context, commits []TableCommit) error {
	const op = "commit tables"
	seen := map[string]bool{}
	for _, tc := range commits {
		if err := validateCommit(tc); err != nil {
			return newError(op, tc.Ident.String(), err)
		}
		key := tc.Ident.String()
		if seen[key] {
			return newError(op, key, wrapf(ErrInvalidArgument, "table appears twice"))
		}
		seen[key] = true
	}
	if len(commits) == 0 {
		return nil
	}
	if c.readOnly {
		return newError(op, "", ErrReadOnly)
	}
	w, err := c.writer(ctx)
	if err != nil {
		return newError(op, "", notApplied(err))
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return newError(op, "", notApplied(err))
	}
	if err := c.swapIn(ctx, tx, op, commits); err != nil {
		return err
	}
	return c.commitSwaps(ctx, tx, op, commits)
}

// swapIn runs the swaps in tx; on any failure it rolls tx back.
func (c *Catalog) swapIn(ctx context.Context, tx *sql.Tx, op string, commits []TableCommit) error {
	stmt := c.swapStatement()
	for _, tc := range commits {
		name := tc.Ident.String()
		if h := c.hooks.BeforeSwap; h != nil {
			if err := h(ctx, tc.Ident); err != nil {
				tx.Rollback()
				return newError(op, name, err)
			}
		}
		res, err := tx.ExecContext(ctx, stmt, tc.New, tc.Expected, c.name,
			joinNamespace(tc.Ident.Namespace), tc.Ident.Name, tc.Expected)
		if err != nil {
			// Not committed: the rollback undoes whatever the statement did.
			tx.Rollback()
			return newError(op, name, notApplied(err))
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			tx.Rollback()
			return newError(op, name, stale(tc.Ident, tc.Expected))
		}
	}
	return nil
}

// commitSwaps commits tx holding the swaps; only a failing COMMIT leaves
// the outcome unknown.
func (c *Catalog) commitSwaps(ctx context.Context, tx *sql.Tx, op string, commits []TableCommit) error {
	if err := tx.Commit(); err != nil {
		if errors.Is(err, sql.ErrTxDone) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			// database/sql refused before sending COMMIT (which it runs
			// without a context) and rolled back.
			return newError(op, "", err)
		}
		return newError(op, "", afterSend(err))
	}
	for _, tc := range commits {
		if err := c.afterSwap(ctx, op, tc.Ident); err != nil {
			return err
		}
	}
	return nil
}

func (c *Catalog) afterSwap(ctx context.Context, op string, ident Identifier) error {
	if h := c.hooks.AfterSwap; h != nil {
		if err := h(ctx, ident); err != nil {
			return newError(op, ident.String(), err)
		}
	}
	return nil
}

// LoadTables reads several table pointers from one snapshot of the catalog,
// in the order given. A missing table fails the whole call
// (iceberg.ErrNoSuchTable naming it).
func (c *Catalog) LoadTables(ctx context.Context, idents []Identifier) ([]TableRecord, error) {
	const op = "load tables"
	for _, id := range idents {
		if err := validateIdent(id); err != nil {
			return nil, newError(op, id.String(), err)
		}
	}
	out := make([]TableRecord, len(idents))
	err := c.readTx(ctx, op, "", func(tx *sql.Tx) error {
		for i, id := range idents {
			rec, err := c.loadTable(ctx, tx, id)
			if err != nil {
				return err
			}
			out[i] = rec
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func stale(ident Identifier, expected string) error {
	return wrapf(iceberg.ErrCommitFailed, "metadata location of %s is no longer %s (or the table is gone)", ident, expected)
}

// notApplied classifies an error that certainly left the catalog unchanged:
// lock contention is a retryable commit failure, anything else is returned
// as it is.
func notApplied(err error) error {
	if isBusy(err) {
		return fmt.Errorf("%w: %w", iceberg.ErrCommitFailed, err)
	}
	return err
}

// afterSend classifies an error from a statement that may have reached the
// database. Only errors SQLite raises before changing anything are
// definite; everything else (I/O, full disk, corruption, interruption,
// cancellation, unknown driver errors) leaves the outcome unknown.
func afterSend(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return fmt.Errorf("%w: %w", iceberg.ErrCommitFailed, err)
		case sqlite3.ErrError, sqlite3.ErrReadonly, sqlite3.ErrConstraint, sqlite3.ErrMismatch,
			sqlite3.ErrRange, sqlite3.ErrMisuse, sqlite3.ErrAuth, sqlite3.ErrPerm:
			return err
		}
	}
	return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
}

func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}
