package sqlite

import (
	"context"
	"database/sql"
	"sort"

	"github.com/icesql/icesql/iceberg"
)

// existsProperty is the property Java writes for every namespace it creates,
// so that an empty namespace has a row.
const existsProperty = "exists"

// Namespaces below ns are the strings in [ns+".", ns+"/"): '/' follows '.'
// in byte order, and the columns use BINARY collation. Unlike Java's LIKE,
// this is case-sensitive and needs no escaping.
const (
	tablesInOrBelow = "SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND " +
		"(table_namespace = ? OR (table_namespace >= ? AND table_namespace < ?))"
	propertiesInOrBelow = "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND " +
		"(namespace = ? OR (namespace >= ? AND namespace < ?))"
)

func childRange(ns string) (lo, hi string) { return ns + ".", ns + "/" }

func (c *Catalog) namespaceExists(ctx context.Context, q querier, ns string) (bool, error) {
	lo, hi := childRange(ns)
	var found bool
	err := q.QueryRowContext(ctx, "SELECT EXISTS("+tablesInOrBelow+") OR EXISTS("+propertiesInOrBelow+")",
		c.name, ns, lo, hi, c.name, ns, lo, hi).Scan(&found)
	return found, err
}

func (c *Catalog) requireNamespace(ctx context.Context, q querier, ns string) error {
	ok, err := c.namespaceExists(ctx, q, ns)
	if err != nil {
		return err
	}
	if !ok {
		return wrapf(iceberg.ErrNoSuchNamespace, "%s", ns)
	}
	return nil
}

// CreateNamespace creates ns with props plus exists=true (as Java does). It
// fails with iceberg.ErrNamespaceExists if ns already exists, explicitly or
// because tables live in or below it. Parents need not exist.
func (c *Catalog) CreateNamespace(ctx context.Context, ns []string, props map[string]string) error {
	const op = "create namespace"
	name := joinNamespace(ns)
	if err := iceberg.CheckNamespace(ns); err != nil {
		return newError(op, name, err)
	}
	for k := range props {
		if k == "" {
			return newError(op, name, wrapf(ErrInvalidArgument, "empty property key"))
		}
	}
	return c.writeTx(ctx, op, name, func(tx *sql.Tx) error {
		ok, err := c.namespaceExists(ctx, tx, name)
		if err != nil {
			return err
		}
		if ok {
			return wrapf(iceberg.ErrNamespaceExists, "%s", name)
		}
		if _, set := props[existsProperty]; !set {
			if err := c.upsertProperty(ctx, tx, name, existsProperty, "true"); err != nil {
				return err
			}
		}
		for k, v := range props {
			if err := c.upsertProperty(ctx, tx, name, k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

func (c *Catalog) upsertProperty(ctx context.Context, tx *sql.Tx, ns, key, value string) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO iceberg_namespace_properties "+
		"(catalog_name, namespace, property_key, property_value) VALUES (?,?,?,?) "+
		"ON CONFLICT (catalog_name, namespace, property_key) DO UPDATE SET property_value = excluded.property_value",
		c.name, ns, key, value)
	return err
}

// NamespaceExists reports whether ns has a property row or any table in or
// below it.
func (c *Catalog) NamespaceExists(ctx context.Context, ns []string) (bool, error) {
	const op = "namespace exists"
	name := joinNamespace(ns)
	if err := validateNamespace(ns); err != nil {
		return false, newError(op, name, err)
	}
	ok, err := c.namespaceExists(ctx, c.reader(), name)
	if err != nil {
		return false, newError(op, name, err)
	}
	return ok, nil
}

// ListNamespaces returns the namespaces one level below parent (top-level
// namespaces when parent is empty), as full paths, sorted. A namespace that
// exists only because of deeper namespaces or tables is listed too. A
// non-empty parent must exist (iceberg.ErrNoSuchNamespace).
func (c *Catalog) ListNamespaces(ctx context.Context, parent []string) ([][]string, error) {
	const op = "list namespaces"
	name := joinNamespace(parent)
	if len(parent) > 0 {
		if err := validateNamespace(parent); err != nil {
			return nil, newError(op, name, err)
		}
	}
	var out [][]string
	err := c.readTx(ctx, op, name, func(tx *sql.Tx) error {
		query := "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ? " +
			"UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?"
		args := []any{c.name, c.name}
		if len(parent) > 0 {
			if err := c.requireNamespace(ctx, tx, name); err != nil {
				return err
			}
			lo, hi := childRange(name)
			query = "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ? " +
				"AND table_namespace >= ? AND table_namespace < ? " +
				"UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ? " +
				"AND namespace >= ? AND namespace < ?"
			args = []any{c.name, lo, hi, c.name, lo, hi}
		}
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		seen := map[string]bool{}
		for rows.Next() {
			var stored string
			if err := rows.Scan(&stored); err != nil {
				return err
			}
			levels := splitNamespace(stored)
			if len(levels) <= len(parent) {
				continue
			}
			child := levels[:len(parent)+1]
			key := joinNamespace(child)
			if !seen[key] {
				seen[key] = true
				out = append(out, child)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return joinNamespace(out[i]) < joinNamespace(out[j]) })
	return out, nil
}

// LoadNamespaceProperties returns the properties of ns (including Java's
// "exists" marker when present). A namespace that exists only through its
// tables has no properties. Missing ns: iceberg.ErrNoSuchNamespace.
func (c *Catalog) LoadNamespaceProperties(ctx context.Context, ns []string) (map[string]string, error) {
	const op = "load namespace properties"
	name := joinNamespace(ns)
	if err := validateNamespace(ns); err != nil {
		return nil, newError(op, name, err)
	}
	props := map[string]string{}
	err := c.readTx(ctx, op, name, func(tx *sql.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, "SELECT property_key, property_value FROM iceberg_namespace_properties "+
			"WHERE catalog_name = ? AND namespace = ?", c.name, name)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			// Java's DDL allows NULL keys and values; skip the former, read
			// the latter as "".
			var k, v sql.NullString
			if err := rows.Scan(&k, &v); err != nil {
				return err
			}
			if k.Valid {
				props[k.String] = v.String
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return props, nil
}

// UpdateNamespaceProperties removes the keys in removals and sets the
// entries of updates, atomically. A key may not be in both. Removing keys
// that are absent is not an error.
func (c *Catalog) UpdateNamespaceProperties(ctx context.Context, ns []string, removals []string, updates map[string]string) error {
	const op = "update namespace properties"
	name := joinNamespace(ns)
	if err := validateNamespace(ns); err != nil {
		return newError(op, name, err)
	}
	for _, k := range removals {
		if _, both := updates[k]; both {
			return newError(op, name, wrapf(ErrInvalidArgument, "property %q is both removed and updated", k))
		}
	}
	for k := range updates {
		if k == "" {
			return newError(op, name, wrapf(ErrInvalidArgument, "empty property key"))
		}
	}
	return c.writeTx(ctx, op, name, func(tx *sql.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		for _, k := range removals {
			if _, err := tx.ExecContext(ctx, "DELETE FROM iceberg_namespace_properties "+
				"WHERE catalog_name = ? AND namespace = ? AND property_key = ?", c.name, name, k); err != nil {
				return err
			}
		}
		for k, v := range updates {
			if err := c.upsertProperty(ctx, tx, name, k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// DropNamespace deletes the property rows of ns. It fails with
// iceberg.ErrNamespaceNotEmpty if ns holds tables or has child namespaces,
// and with iceberg.ErrNoSuchNamespace if it does not exist.
func (c *Catalog) DropNamespace(ctx context.Context, ns []string) error {
	const op = "drop namespace"
	name := joinNamespace(ns)
	if err := validateNamespace(ns); err != nil {
		return newError(op, name, err)
	}
	return c.writeTx(ctx, op, name, func(tx *sql.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		lo, hi := childRange(name)
		var hasTables, hasChildren bool
		if err := tx.QueryRowContext(ctx, "SELECT EXISTS("+tablesInOrBelow+")", c.name, name, lo, hi).Scan(&hasTables); err != nil {
			return err
		}
		if hasTables {
			return wrapf(iceberg.ErrNamespaceNotEmpty, "%s contains tables", name)
		}
		if err := tx.QueryRowContext(ctx, "SELECT EXISTS(SELECT 1 FROM iceberg_namespace_properties "+
			"WHERE catalog_name = ? AND namespace >= ? AND namespace < ?)", c.name, lo, hi).Scan(&hasChildren); err != nil {
			return err
		}
		if hasChildren {
			return wrapf(iceberg.ErrNamespaceNotEmpty, "%s has child namespaces", name)
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?",
			c.name, name)
		return err
	})
}
