// Package duck checks icesql's tables against DuckDB, a reader and writer
// nobody on this project wrote: DuckDB reads the Parquet files icesql
// writes (read_parquet over a table's files list) and icesql imports the
// Parquet files DuckDB writes (add_files and the shell's \copy), and both
// must see the same rows. It is a package of its own so that only its test
// binary links DuckDB's static library.
package duck
