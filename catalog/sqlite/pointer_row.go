package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// Tables and views are both pointer rows of iceberg_tables, told apart by
// iceberg_type; rowKind carries what differs so one piece of code reads,
// lists, moves and deletes either.
type rowKind struct {
	noun    string // "table" or "view", for messages
	filter  string // appended to a WHERE clause to keep only this kind's rows
	present bool   // false when the catalog cannot hold rows of this kind
	missing error  // the sentinel for "no such row"
	taken   error  // the sentinel for a name already in use
}

func (c *Catalog) tableKind() rowKind {
	return rowKind{"table", c.onlyTables(), true, iceberg.ErrNoSuchTable, iceberg.ErrTableAlreadyExists}
}

func (c *Catalog) viewKind() rowKind {
	return rowKind{"view", onlyViews, c.hasType(), iceberg.ErrNoSuchView, iceberg.ErrViewAlreadyExists}
}

// pointerRow is the part of a row TableRecord and ViewRecord both hold.
type pointerRow struct {
	MetadataLocation         string
	PreviousMetadataLocation string
}

const whereIdent = "WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?"

func (c *Catalog) identArgs(ident Identifier) []any {
	return []any{c.name, joinNamespace(ident.Namespace), ident.Name}
}

func validateInsert(ident Identifier, location string) error {
	if err := validateNewIdent(ident); err != nil {
		return err
	}
	if location == "" {
		return wrapf(ErrInvalidArgument, "empty metadata location")
	}
	return nil
}

// insertRow adds a pointer row inside tx. typ is its iceberg_type, ""
// on a V0 catalog, which has no such column; taken is the sentinel for a
// name already in use.
func (c *Catalog) insertRow(ctx context.Context, tx *sql.Tx, ident Identifier, location, typ string, taken error) error {
	var err error
	if typ == "" {
		_, err = tx.ExecContext(ctx, "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "+
			"metadata_location, previous_metadata_location) VALUES (?,?,?,?,null)",
			c.name, joinNamespace(ident.Namespace), ident.Name, location)
	} else {
		_, err = tx.ExecContext(ctx, "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "+
			"metadata_location, previous_metadata_location, iceberg_type) VALUES (?,?,?,?,null,?)",
			c.name, joinNamespace(ident.Namespace), ident.Name, location, typ)
	}
	if isConstraint(err) {
		return wrapf(taken, "%s", ident)
	}
	return err
}

func (c *Catalog) loadRow(ctx context.Context, q querier, ident Identifier, k rowKind) (pointerRow, error) {
	var loc, prev sql.NullString
	err := q.QueryRowContext(ctx, "SELECT metadata_location, previous_metadata_location FROM iceberg_tables "+
		whereIdent+k.filter, c.identArgs(ident)...).Scan(&loc, &prev)
	if errors.Is(err, sql.ErrNoRows) {
		return pointerRow{}, wrapf(k.missing, "%s", ident)
	}
	if err != nil {
		return pointerRow{}, err
	}
	if !loc.Valid || loc.String == "" {
		return pointerRow{}, wrapf(ErrInvalidRow, "%s %s has no metadata_location", k.noun, ident)
	}
	return pointerRow{MetadataLocation: loc.String, PreviousMetadataLocation: prev.String}, nil
}

// loadRowOp is the public load: a catalog that cannot hold the kind has
// no such row.
func (c *Catalog) loadRowOp(ctx context.Context, op string, ident Identifier, k rowKind) (pointerRow, error) {
	if err := validateIdent(ident); err != nil {
		return pointerRow{}, newError(op, ident.String(), err)
	}
	if !k.present {
		return pointerRow{}, newError(op, ident.String(), wrapf(k.missing, "%s", ident))
	}
	rec, err := c.loadRow(ctx, c.reader(), ident, k)
	if err != nil {
		return pointerRow{}, newError(op, ident.String(), err)
	}
	return rec, nil
}

func (c *Catalog) rowExists(ctx context.Context, op string, ident Identifier, k rowKind) (bool, error) {
	if err := validateIdent(ident); err != nil {
		return false, newError(op, ident.String(), err)
	}
	if !k.present {
		return false, nil
	}
	var found bool
	err := c.reader().QueryRowContext(ctx, "SELECT EXISTS(SELECT 1 FROM iceberg_tables "+
		whereIdent+k.filter+")", c.identArgs(ident)...).Scan(&found)
	if err != nil {
		return false, newError(op, ident.String(), err)
	}
	return found, nil
}

// listRows returns the rows of kind k directly in ns, sorted by name. The
// namespace must exist (iceberg.ErrNoSuchNamespace).
func (c *Catalog) listRows(ctx context.Context, op string, ns []string, k rowKind) ([]Identifier, error) {
	name := joinNamespace(ns)
	if err := validateNamespace(ns); err != nil {
		return nil, newError(op, name, err)
	}
	var out []Identifier
	err := c.readTx(ctx, op, name, func(tx *sql.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		if !k.present {
			return nil
		}
		rows, err := tx.QueryContext(ctx, "SELECT table_name FROM iceberg_tables "+
			"WHERE catalog_name = ? AND table_namespace = ?"+k.filter+" ORDER BY table_name", c.name, name)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				return err
			}
			out = append(out, Identifier{Namespace: append([]string(nil), ns...), Name: n})
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// moveRow renames the row from to to inside tx; the caller has checked the
// source and the target namespace.
func (c *Catalog) moveRow(ctx context.Context, tx *sql.Tx, from, to Identifier, k rowKind) error {
	res, err := tx.ExecContext(ctx, "UPDATE iceberg_tables SET table_namespace = ?, table_name = ? "+whereIdent+k.filter,
		append([]any{joinNamespace(to.Namespace), to.Name}, c.identArgs(from)...)...)
	if isConstraint(err) {
		return wrapf(k.taken, "%s", to)
	}
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return wrapf(k.missing, "%s", from)
	}
	return nil
}

// dropRow deletes a row and returns it; a row without a metadata location
// is deleted all the same.
func (c *Catalog) dropRow(ctx context.Context, op string, ident Identifier, k rowKind) (pointerRow, error) {
	var rec pointerRow
	err := c.writeTx(ctx, op, ident.String(), func(tx *sql.Tx) error {
		var err error
		if rec, err = c.loadRow(ctx, tx, ident, k); err != nil && !errors.Is(err, ErrInvalidRow) {
			return err
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM iceberg_tables "+whereIdent+k.filter, c.identArgs(ident)...)
		return err
	})
	if err != nil {
		return pointerRow{}, err
	}
	return rec, nil
}

// swapOutcome classifies a sent pointer swap: stale is the error for a
// swap that matched no row (the pointer moved or the row is gone).
func swapOutcome(res sql.Result, err error, stale error) error {
	if err != nil {
		return afterSend(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
	}
	if n != 1 {
		return stale
	}
	return nil
}
