// Package postgres is an Iceberg catalog in a Postgres database with the
// exact schema of Iceberg's JDBC catalog (JdbcUtil, schema version V1 with
// iceberg_type), so Spark's and Trino's JdbcCatalog open the same database
// unchanged.
//
// A commit is the JDBC catalog's conditional UPDATE ... WHERE
// metadata_location = <expected>, successful when it changes exactly one
// row; several pointers are swapped in one Postgres transaction
// (CommitTables). Committers may also lock pointers from the read of their
// base to the swap (LockForCommit: SELECT ... FOR UPDATE), so writers of
// one table queue instead of retrying.
//
// When the connection is lost after a swap was sent, the outcome is
// resolved before returning: the session that sent it is terminated
// (pg_terminate_backend, so it can no longer commit), then the pointers
// are read back. Only if that too fails is iceberg.ErrCommitStateUnknown
// returned.
//
// Dialect differences from SQLite that the package handles: namespace
// prefixes match with a case-sensitive, escaped LIKE (as Java's), names are
// limited to 255 characters and locations and property values to 1,000
// (VARCHAR limits Postgres enforces), and text may not contain NUL bytes.
package postgres
