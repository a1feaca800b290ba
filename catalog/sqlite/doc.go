// Package sqlite is an Iceberg catalog stored in a SQLite file with the
// exact schema of Iceberg's JDBC catalog, so the same file can be shared
// with Java (JdbcCatalog), PyIceberg (SqlCatalog) and iceberg-go.
//
// The catalog stores only table pointers: for each table, the location of
// its current metadata.json and the one it replaced. Reading and writing
// metadata files is the caller's job. A commit is a compare-and-swap of the
// pointer (CommitTable); several pointers can be swapped atomically in one
// SQLite transaction (CommitTables).
//
// Namespaces are multi-level and stored as dot-joined strings, as Java does,
// so a namespace level may not contain a dot. A namespace exists if it has a
// property row or any table (at it or below it).
//
// Several goroutines and several processes may use one catalog file at
// once: the file is put in WAL mode, writers serialise through SQLite's
// write lock with a busy timeout, and reads run in their own pool.
package sqlite
