package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// swapSQL is Java's DO_COMMIT_SQL (the V1 forms append the type filter).
const swapSQL = "UPDATE iceberg_tables SET metadata_location = $4, previous_metadata_location = $5 " +
	"WHERE catalog_name = $1 AND table_namespace = $2 AND table_name = $3 AND metadata_location = $5"

func (c *Catalog) swapArgs(tc catalog.TableCommit) []any {
	return []any{c.name, joinNamespace(tc.Ident.Namespace), tc.Ident.Name, tc.New, tc.Expected}
}

func validateCommit(tc catalog.TableCommit) error {
	if err := validateIdent(tc.Ident); err != nil {
		return err
	}
	if tc.Expected == "" || tc.New == "" {
		return wrapf(catalog.ErrInvalidArgument, "empty expected or new metadata location")
	}
	return validateLocation(tc.New)
}

func stale(ident Identifier, expected string) error {
	return wrapf(iceberg.ErrCommitFailed, "metadata location of %s is no longer %s (or it is gone)", ident, expected)
}

// CommitTable swaps the table's metadata location from expected to next
// if, and only if, it is still expected.
//
// Errors: iceberg.ErrCommitFailed when the pointer moved (or the swap lost
// a lock or serialisation conflict) and nothing changed.
// iceberg.ErrCommitStateUnknown only when the connection was lost after
// the swap was sent and the pointer could not be read back (see the
// package doc): the caller must not delete next.
func (c *Catalog) CommitTable(ctx context.Context, ident Identifier, expected, next string) error {
	return c.swapOne(ctx, "commit table", ident, expected, next, c.tableKind())
}

func (c *Catalog) swapOne(ctx context.Context, op string, ident Identifier, expected, next string, k rowKind) error {
	name := ident.String()
	tc := catalog.TableCommit{Ident: ident, Expected: expected, New: next}
	if err := validateCommit(tc); err != nil {
		return newError(op, name, err)
	}
	if c.readOnly {
		return newError(op, name, catalog.ErrReadOnly)
	}
	if h := c.hooks.BeforeSwap; h != nil {
		if err := h(ctx, ident); err != nil {
			return newError(op, name, err)
		}
	}
	conn, err := c.pool.Acquire(ctx)
	if err != nil {
		return newError(op, name, notApplied(err))
	}
	defer conn.Release()
	fence := fenceOf(conn)
	tag, err := conn.Exec(ctx, swapSQL+k.filter, c.swapArgs(tc)...)
	if err == nil && tag.RowsAffected() != 1 {
		return newError(op, name, stale(ident, expected))
	}
	if err != nil {
		if definite(err) {
			return newError(op, name, notApplied(err))
		}
		conn.Conn().Close(context.WithoutCancel(ctx)) // never reused by the pool
		if err := c.resolveLost(ctx, fence, []catalog.TableCommit{tc}, k, err); err != nil {
			return newError(op, name, err)
		}
	}
	return c.afterSwap(ctx, op, ident)
}

// CommitTables swaps several table pointers in one Postgres transaction:
// all of them or none. If any pointer is not at its Expected location,
// nothing changes and the error wraps iceberg.ErrCommitFailed and names
// that table. Errors follow CommitTable; only a lost COMMIT can leave the
// outcome to be resolved.
func (c *Catalog) CommitTables(ctx context.Context, commits []catalog.TableCommit) error {
	const op = "commit tables"
	if err := c.checkCommits(op, commits); err != nil || len(commits) == 0 {
		return err
	}
	conn, err := c.pool.Acquire(ctx)
	if err != nil {
		return newError(op, "", notApplied(err))
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return newError(op, "", notApplied(err))
	}
	return c.finishCommit(ctx, op, conn, tx, commits)
}

func (c *Catalog) checkCommits(op string, commits []catalog.TableCommit) error {
	seen := map[string]bool{}
	for _, tc := range commits {
		key := tc.Ident.String()
		if err := validateCommit(tc); err != nil {
			return newError(op, key, err)
		}
		if seen[key] {
			return newError(op, key, wrapf(catalog.ErrInvalidArgument, "table appears twice"))
		}
		seen[key] = true
	}
	if c.readOnly && len(commits) > 0 {
		return newError(op, "", catalog.ErrReadOnly)
	}
	return nil
}

// finishCommit runs the swaps in tx and commits it. Until COMMIT is sent
// every failure is definite: a transaction never commits without it.
func (c *Catalog) finishCommit(ctx context.Context, op string, conn *pgxpool.Conn, tx pgx.Tx, commits []catalog.TableCommit) error {
	k := c.tableKind()
	for _, tc := range commits {
		name := tc.Ident.String()
		if h := c.hooks.BeforeSwap; h != nil {
			if err := h(ctx, tc.Ident); err != nil {
				tx.Rollback(context.WithoutCancel(ctx))
				return newError(op, name, err)
			}
		}
		tag, err := tx.Exec(ctx, swapSQL+k.filter, c.swapArgs(tc)...)
		if err != nil {
			tx.Rollback(context.WithoutCancel(ctx))
			return newError(op, name, notApplied(err))
		}
		if tag.RowsAffected() != 1 {
			tx.Rollback(context.WithoutCancel(ctx))
			return newError(op, name, stale(tc.Ident, tc.Expected))
		}
	}
	fence := fenceOf(conn)
	if err := tx.Commit(ctx); err != nil {
		if definite(err) {
			return newError(op, "", notApplied(err))
		}
		conn.Conn().Close(context.WithoutCancel(ctx)) // never reused by the pool
		if err := c.resolveLost(ctx, fence, commits, k, err); err != nil {
			return newError(op, "", err)
		}
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

// definite reports whether a failed statement certainly changed nothing:
// it never left the client, or the server answered it with an error (the
// statement, or the whole transaction, was rolled back).
// A FATAL error ends the session, possibly after the statement committed
// (a terminated backend), so it is not definite.
func definite(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Severity != "FATAL" && pe.Severity != "PANIC"
	}
	return pgconn.SafeToRetry(err)
}

// notApplied classifies an error that certainly left the catalog
// unchanged: lost lock or serialisation races are retryable commit
// failures, anything else is returned as it is.
func notApplied(err error) error {
	switch pgCode(err) {
	case codeDeadlockDetected, codeLockNotAvailable:
		return fmt.Errorf("%w: %w", iceberg.ErrCommitFailed, busy(err))
	case codeSerializationFailure:
		return fmt.Errorf("%w: %w", iceberg.ErrCommitFailed, err)
	}
	return err
}
