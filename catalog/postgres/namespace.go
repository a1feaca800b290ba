package postgres

import (
	"context"
	"sort"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// existsProperty is the property Java writes for every namespace it
// creates, so that an empty namespace has a row.
const existsProperty = "exists"

// A namespace exists if a table or property row is at it or below it; the
// rows below match childPattern with LIKE ... ESCAPE '!' (case-sensitive in
// Postgres, as in Java's query).
const (
	tablesInOrBelow = "SELECT 1 FROM iceberg_tables WHERE catalog_name = $1 AND " +
		"(table_namespace = $2 OR table_namespace LIKE $3 ESCAPE '!')"
	propertiesInOrBelow = "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = $1 AND " +
		"(namespace = $2 OR namespace LIKE $3 ESCAPE '!')"
)

func (c *Catalog) namespaceExists(ctx context.Context, q querier, ns string) (bool, error) {
	var found bool
	err := q.QueryRow(ctx, "SELECT EXISTS("+tablesInOrBelow+") OR EXISTS("+propertiesInOrBelow+")",
		c.name, ns, childPattern(ns)).Scan(&found)
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
	if err := validateNamespace(ns); err != nil {
		return newError(op, name, err)
	}
	for k, v := range props {
		if err := validateProperty(k, v); err != nil {
			return newError(op, name, err)
		}
	}
	return c.writeTx(ctx, op, name, func(tx pgx.Tx) error {
		ok, err := c.namespaceExists(ctx, tx, name)
		if err != nil {
			return err
		}
		if ok {
			return wrapf(iceberg.ErrNamespaceExists, "%s", name)
		}
		all := map[string]string{existsProperty: "true"}
		for k, v := range props {
			all[k] = v
		}
		for k, v := range all {
			// A plain INSERT: a concurrent creator of the same namespace
			// makes it fail on the primary key.
			_, err := tx.Exec(ctx, "INSERT INTO iceberg_namespace_properties "+
				"(catalog_name, namespace, property_key, property_value) VALUES ($1,$2,$3,$4)", c.name, name, k, v)
			if isUniqueViolation(err) {
				return wrapf(iceberg.ErrNamespaceExists, "%s", name)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

func (c *Catalog) upsertProperty(ctx context.Context, tx pgx.Tx, ns, key, value string) error {
	_, err := tx.Exec(ctx, "INSERT INTO iceberg_namespace_properties "+
		"(catalog_name, namespace, property_key, property_value) VALUES ($1,$2,$3,$4) "+
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
	ok, err := c.namespaceExists(ctx, c.pool, name)
	if err != nil {
		return false, newError(op, name, err)
	}
	return ok, nil
}

// ListNamespaces returns the namespaces one level below parent (top-level
// namespaces when parent is empty), as full paths, sorted by their
// dot-joined bytes. A non-empty parent must exist.
func (c *Catalog) ListNamespaces(ctx context.Context, parent []string) ([][]string, error) {
	const op = "list namespaces"
	name := joinNamespace(parent)
	if len(parent) > 0 {
		if err := validateNamespace(parent); err != nil {
			return nil, newError(op, name, err)
		}
	}
	var out [][]string
	err := c.readTx(ctx, op, name, func(tx pgx.Tx) error {
		query := "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = $1 " +
			"UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = $1"
		args := []any{c.name}
		if len(parent) > 0 {
			if err := c.requireNamespace(ctx, tx, name); err != nil {
				return err
			}
			query = "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = $1 " +
				"AND table_namespace LIKE $2 ESCAPE '!' " +
				"UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = $1 " +
				"AND namespace LIKE $2 ESCAPE '!'"
			args = append(args, childPattern(name))
		}
		rows, err := tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		stored, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, s := range stored {
			levels := splitNamespace(s)
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
		return nil
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
	err := c.readTx(ctx, op, name, func(tx pgx.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT property_key, property_value FROM iceberg_namespace_properties "+
			"WHERE catalog_name = $1 AND namespace = $2", c.name, name)
		if err != nil {
			return err
		}
		var k, v pgtype.Text
		_, err = pgx.ForEachRow(rows, []any{&k, &v}, func() error {
			// The key is part of the primary key, so never NULL in
			// Postgres; a NULL value reads as "".
			if k.Valid {
				props[k.String] = v.String
			}
			return nil
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return props, nil
}

// UpdateNamespaceProperties removes the keys in removals and sets the
// entries of updates, atomically. A key may not be in both.
func (c *Catalog) UpdateNamespaceProperties(ctx context.Context, ns []string, removals []string, updates map[string]string) error {
	const op = "update namespace properties"
	name := joinNamespace(ns)
	if err := validateNamespace(ns); err != nil {
		return newError(op, name, err)
	}
	for _, k := range removals {
		if _, both := updates[k]; both {
			return newError(op, name, wrapf(catalog.ErrInvalidArgument, "property %q is both removed and updated", k))
		}
	}
	for k, v := range updates {
		if err := validateProperty(k, v); err != nil {
			return newError(op, name, err)
		}
	}
	return c.writeTx(ctx, op, name, func(tx pgx.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		if len(removals) > 0 {
			if _, err := tx.Exec(ctx, "DELETE FROM iceberg_namespace_properties "+
				"WHERE catalog_name = $1 AND namespace = $2 AND property_key = ANY($3)", c.name, name, removals); err != nil {
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
	return c.writeTx(ctx, op, name, func(tx pgx.Tx) error {
		if err := c.requireNamespace(ctx, tx, name); err != nil {
			return err
		}
		var hasTables, hasChildren bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS("+tablesInOrBelow+")", c.name, name, childPattern(name)).Scan(&hasTables); err != nil {
			return err
		}
		if hasTables {
			return wrapf(iceberg.ErrNamespaceNotEmpty, "%s contains tables", name)
		}
		if err := tx.QueryRow(ctx, "SELECT EXISTS(SELECT 1 FROM iceberg_namespace_properties "+
			"WHERE catalog_name = $1 AND namespace LIKE $2 ESCAPE '!')", c.name, childPattern(name)).Scan(&hasChildren); err != nil {
			return err
		}
		if hasChildren {
			return wrapf(iceberg.ErrNamespaceNotEmpty, "%s has child namespaces", name)
		}
		_, err := tx.Exec(ctx, "DELETE FROM iceberg_namespace_properties WHERE catalog_name = $1 AND namespace = $2",
			c.name, name)
		return err
	})
}
