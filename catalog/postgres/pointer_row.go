package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// Tables and views are both pointer rows of iceberg_tables, told apart by
// iceberg_type; rowKind carries what differs.
type rowKind struct {
	noun    string // "table" or "view", for messages
	filter  string // appended to a WHERE clause to keep only this kind's rows
	typ     string // iceberg_type of new rows ("" on a V0 catalog)
	present bool   // false when the catalog cannot hold rows of this kind
	missing error  // the sentinel for "no such row"
	taken   error  // the sentinel for a name already in use
}

const onlyViews = " AND iceberg_type = 'VIEW'"

// onlyTables keeps table rows on a V1 schema; NULL iceberg_type is a
// table written by a V0 client.
func (c *Catalog) onlyTables() string {
	if c.hasType {
		return " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)"
	}
	return ""
}

func (c *Catalog) tableKind() rowKind {
	typ := ""
	if c.hasType {
		typ = "TABLE"
	}
	return rowKind{"table", c.onlyTables(), typ, true, iceberg.ErrNoSuchTable, iceberg.ErrTableAlreadyExists}
}

func (c *Catalog) viewKind() rowKind {
	return rowKind{"view", onlyViews, "VIEW", c.hasType, iceberg.ErrNoSuchView, iceberg.ErrViewAlreadyExists}
}

const whereIdent = "WHERE catalog_name = $1 AND table_namespace = $2 AND table_name = $3"

func (c *Catalog) identArgs(ident Identifier) []any {
	return []any{c.name, joinNamespace(ident.Namespace), ident.Name}
}

func (c *Catalog) insertRow(ctx context.Context, tx pgx.Tx, ident Identifier, location string, k rowKind) error {
	var err error
	if k.typ == "" {
		_, err = tx.Exec(ctx, "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "+
			"metadata_location, previous_metadata_location) VALUES ($1,$2,$3,$4,null)",
			c.name, joinNamespace(ident.Namespace), ident.Name, location)
	} else {
		_, err = tx.Exec(ctx, "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "+
			"metadata_location, previous_metadata_location, iceberg_type) VALUES ($1,$2,$3,$4,null,$5)",
			c.name, joinNamespace(ident.Namespace), ident.Name, location, k.typ)
	}
	if isUniqueViolation(err) {
		return wrapf(k.taken, "%s", ident)
	}
	return err
}

// insertObject adds a new table or view row; its namespace must exist and
// its name be free among tables and views.
func (c *Catalog) insertObject(ctx context.Context, op string, ident Identifier, location string, k rowKind) error {
	if err := validateIdent(ident); err != nil {
		return newError(op, ident.String(), err)
	}
	if err := validateLocation(location); err != nil {
		return newError(op, ident.String(), err)
	}
	if !k.present {
		return newError(op, ident.String(), catalog.ErrViewsUnsupported)
	}
	return c.writeTx(ctx, op, ident.String(), func(tx pgx.Tx) error {
		if err := c.requireNamespace(ctx, tx, joinNamespace(ident.Namespace)); err != nil {
			return err
		}
		if err := c.requireFree(ctx, tx, ident); err != nil {
			return err
		}
		return c.insertRow(ctx, tx, ident, location, k)
	})
}

// requireFree fails when a table or view already has the name, with the
// sentinel of what holds it.
func (c *Catalog) requireFree(ctx context.Context, tx pgx.Tx, ident Identifier) error {
	var typ pgtype.Text
	err := tx.QueryRow(ctx, "SELECT "+c.typeColumn()+" FROM iceberg_tables "+whereIdent, c.identArgs(ident)...).Scan(&typ)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if typ.String == "VIEW" {
		return wrapf(iceberg.ErrViewAlreadyExists, "%s", ident)
	}
	return wrapf(iceberg.ErrTableAlreadyExists, "%s", ident)
}

func (c *Catalog) typeColumn() string {
	if c.hasType {
		return "iceberg_type"
	}
	return "NULL::text"
}

type pointerRow = catalog.Record

// loadRow reads a row; suffix ends the query (" FOR UPDATE" to lock it).
func (c *Catalog) loadRow(ctx context.Context, q querier, ident Identifier, k rowKind, suffix ...string) (pointerRow, error) {
	var loc, prev pgtype.Text
	query := "SELECT metadata_location, previous_metadata_location FROM iceberg_tables " + whereIdent + k.filter
	for _, s := range suffix {
		query += s
	}
	err := q.QueryRow(ctx, query, c.identArgs(ident)...).Scan(&loc, &prev)
	if errors.Is(err, pgx.ErrNoRows) {
		return pointerRow{}, wrapf(k.missing, "%s", ident)
	}
	if err != nil {
		return pointerRow{}, err
	}
	if !loc.Valid || loc.String == "" {
		return pointerRow{}, wrapf(catalog.ErrInvalidRow, "%s %s has no metadata_location", k.noun, ident)
	}
	return pointerRow{MetadataLocation: loc.String, PreviousMetadataLocation: prev.String}, nil
}

func (c *Catalog) loadRowOp(ctx context.Context, op string, ident Identifier, k rowKind) (pointerRow, error) {
	if err := validateIdent(ident); err != nil {
		return pointerRow{}, newError(op, ident.String(), err)
	}
	if !k.present {
		return pointerRow{}, newError(op, ident.String(), wrapf(k.missing, "%s", ident))
	}
	rec, err := c.loadRow(ctx, c.pool, ident, k)
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
	err := c.pool.QueryRow(ctx, "SELECT EXISTS(SELECT 1 FROM iceberg_tables "+whereIdent+k.filter+")",
		c.identArgs(ident)...).Scan(&found)
	if err != nil {
		return false, newError(op, ident.String(), err)
	}
	return found, nil
}

// listRows returns the rows of kind k directly in ns, sorted by name
// (byte order). The namespace must exist.
func (c *Catalog) listRows(ctx context.Context, op string, ns []string, k rowKind) ([]Identifier, error) {
	name := joinNamespace(ns)
	if err := validateNamespace(ns); err != nil {
		return nil, newError(op, name, err)
	}
	var out []Identifier
	err := c.readTx(ctx, op, name, func(tx pgx.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		if !k.present {
			return nil
		}
		rows, err := tx.Query(ctx, "SELECT table_name FROM iceberg_tables "+
			"WHERE catalog_name = $1 AND table_namespace = $2"+k.filter+` ORDER BY table_name COLLATE "C"`, c.name, name)
		if err != nil {
			return err
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		for _, n := range names {
			out = append(out, Identifier{Namespace: append([]string(nil), ns...), Name: n})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// moveRow renames a row inside tx: the source must exist, the target
// namespace must exist and the target name be free.
func (c *Catalog) moveRow(ctx context.Context, op string, from, to Identifier, k rowKind) error {
	if err := validateIdent(from); err != nil {
		return newError(op, from.String(), err)
	}
	if err := validateIdent(to); err != nil {
		return newError(op, to.String(), err)
	}
	if !k.present {
		return newError(op, from.String(), wrapf(k.missing, "%s", from))
	}
	return c.writeTx(ctx, op, from.String(), func(tx pgx.Tx) error {
		if _, err := c.loadRow(ctx, tx, from, k); err != nil && !errors.Is(err, catalog.ErrInvalidRow) {
			return err
		}
		if err := c.requireNamespace(ctx, tx, joinNamespace(to.Namespace)); err != nil {
			return err
		}
		if err := c.requireFree(ctx, tx, to); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, "UPDATE iceberg_tables SET table_namespace = $4, table_name = $5 "+whereIdent+k.filter,
			append(c.identArgs(from), joinNamespace(to.Namespace), to.Name)...)
		if isUniqueViolation(err) {
			return wrapf(iceberg.ErrTableAlreadyExists, "%s", to)
		}
		if err != nil {
			return err
		}
		if res.RowsAffected() != 1 {
			return wrapf(k.missing, "%s", from)
		}
		return nil
	})
}

// dropRow deletes a row and returns it; a row without a metadata location
// is deleted all the same.
func (c *Catalog) dropRow(ctx context.Context, op string, ident Identifier, k rowKind) (pointerRow, error) {
	if err := validateIdent(ident); err != nil {
		return pointerRow{}, newError(op, ident.String(), err)
	}
	if !k.present {
		return pointerRow{}, newError(op, ident.String(), wrapf(k.missing, "%s", ident))
	}
	var rec pointerRow
	err := c.writeTx(ctx, op, ident.String(), func(tx pgx.Tx) error {
		var loc, prev pgtype.Text
		err := tx.QueryRow(ctx, "DELETE FROM iceberg_tables "+whereIdent+k.filter+
			" RETURNING metadata_location, previous_metadata_location", c.identArgs(ident)...).Scan(&loc, &prev)
		if errors.Is(err, pgx.ErrNoRows) {
			return wrapf(k.missing, "%s", ident)
		}
		rec = pointerRow{MetadataLocation: loc.String, PreviousMetadataLocation: prev.String}
		return err
	})
	if err != nil {
		return pointerRow{}, err
	}
	return rec, nil
}

// SQLSTATE codes the catalog tells apart.
const (
	codeUniqueViolation      = "23505"
	codeSerializationFailure = "40001"
	codeDeadlockDetected     = "40P01"
	codeLockNotAvailable     = "55P03"
)

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func isUniqueViolation(err error) bool { return err != nil && pgCode(err) == codeUniqueViolation }
