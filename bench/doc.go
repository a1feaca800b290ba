// Package bench compares icesql with DuckDB on the same Parquet files.
//
// It writes an events table (event_id, user_id, action, event_ts, amount)
// and a users table (user_id, country) through icesql's driver, points
// DuckDB's read_parquet at the very data files listed by the tables'
// files metadata tables, and runs each query through icesql (database/sql
// rows and the Arrow path, Conn.Raw + QueryArrow) and through DuckDB,
// interleaved, comparing result checksums. DuckDB is a dependency of this
// module only, never of icesql's own.
//
// Run it with `go run ./cmd/duckcompare` from this directory; the quick
// test (`go test .`) checks at small scale that both engines agree.
package bench
