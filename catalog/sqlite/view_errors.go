package sqlite

import "github.com/icesql/icesql/catalog"

// ErrViewsUnsupported: the catalog's iceberg_tables has no iceberg_type
// column (Java's V0 schema, PyIceberg), so it cannot hold views. Java
// refuses view operations on such a catalog the same way.
var ErrViewsUnsupported = catalog.ErrViewsUnsupported
