package duck

import "strings"

// column is one column of the round-trip table: how DuckDB generates it
// from i (0, 1, ... n-1), its Iceberg type in icesql's DDL, how DuckDB
// selects it for comparison, and how its values are rendered.
type column struct {
	name   string
	gen    string // DuckDB expression over i
	ice    string // icesql column type
	duckRd string // DuckDB read expression (default: the name)
	kind   kind
}

// columns covers every Iceberg primitive DuckDB writes, nullable, with
// NULLs at different rates (so definition-level runs end mid-group at
// every row count), negative and extreme values, and nested types.
var columns = []column{
	{"id", "i::BIGINT", "BIGINT", "", kInt},
	{"b", "CASE WHEN i % 5 = 1 THEN NULL ELSE i % 2 = 0 END", "BOOLEAN", "", kBool},
	{"i8", "CASE WHEN i % 7 = 3 THEN NULL ELSE (i % 256 - 128)::TINYINT END", "INT", "", kInt},
	{"i16", "((i * 31) % 65536 - 32768)::SMALLINT", "INT", "", kInt},
	{"i32", "CASE WHEN i % 3 = 0 THEN NULL ELSE (i * 7919 % 2000000 - 1000000)::INTEGER END", "INT", "", kInt},
	{"i64", "CASE WHEN i % 2 = 0 THEN i * 1000000007 ELSE -(i * 92233720368547) END", "BIGINT", "", kInt},
	{"f32", "CASE WHEN i % 11 = 5 THEN NULL ELSE (i / 3.0)::FLOAT END", "FLOAT", "", kFloat32},
	{"f64", "CASE WHEN i % 13 = 6 THEN NULL WHEN i = 2 THEN 'nan'::DOUBLE WHEN i = 3 THEN 'inf'::DOUBLE " +
		"WHEN i = 4 THEN '-inf'::DOUBLE WHEN i = 5 THEN '-0.0'::DOUBLE ELSE i::DOUBLE / 7 END", "DOUBLE", "", kFloat64},
	{"d9", "CASE WHEN i % 4 = 2 THEN NULL ELSE CAST(((i * 12345) % 999999999 - 499999999) * 0.01 AS DECIMAL(9,2)) END",
		"DECIMAL(9,2)", "", kDecimal},
	{"d18", "CAST((i * 1234567891 - 61728394550000) * 0.0001 AS DECIMAL(18,4))", "DECIMAL(18,4)", "", kDecimal},
	{"d38", "CAST(CASE WHEN i % 2 = 1 THEN '-' ELSE '' END || CAST(i * 1234567 AS VARCHAR) || '123456789012345.' || " +
		"lpad(CAST(i % 10000000000 AS VARCHAR), 10, '0') AS DECIMAL(38,10))", "DECIMAL(38,10)", "", kDecimal},
	{"dt", "CASE WHEN i % 9 = 4 THEN NULL ELSE DATE '1970-01-01' + CAST(i * 37 % 200000 - 100000 AS INTEGER) END",
		"DATE", "", kDate},
	{"ts", "make_timestamp((i * 123456789012 - 6000000000000000)::BIGINT)", "TIMESTAMP_NTZ", "", kTimestamp},
	{"tstz", "CASE WHEN i % 3 = 1 THEN NULL ELSE make_timestamp((i * 98765432109 + 946684800000000)::BIGINT)::TIMESTAMPTZ END",
		"TIMESTAMP", "", kTimestamp},
	{"t", "TIME '00:00:00' + to_microseconds(i * 863999 % 86400000000)", "TIME", "", kTime},
	{"s", "CASE WHEN i % 6 = 5 THEN NULL WHEN i % 6 = 4 THEN '' ELSE 'row ' || i || ' é…' || repeat('x', (i % 17)::INTEGER) END",
		"STRING", "", kString},
	{"bin", "CASE WHEN i % 8 = 7 THEN NULL ELSE '\\x00\\xFF'::BLOB || encode(i::VARCHAR) END", "BINARY", "", kBinary},
	{"u", "CASE WHEN i % 10 = 9 THEN NULL ELSE md5(i::VARCHAR)::UUID END", "UUID", "u::VARCHAR", kUUID},
	{"arr", "CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN []::INTEGER[] ELSE [i::INTEGER, NULL, (i % 1000)::INTEGER] END",
		"ARRAY<INT>", "to_json(arr)::VARCHAR", kJSON},
	{"st", "CASE WHEN i % 5 = 3 THEN NULL ELSE {'a': CASE WHEN i % 2 = 0 THEN NULL ELSE i::INTEGER END, 'b': 's' || i} END",
		"STRUCT<a: INT, b: STRING>", "to_json(st)::VARCHAR", kJSON},
	{"m", "CASE WHEN i % 6 = 2 THEN NULL WHEN i % 6 = 3 THEN MAP([]::VARCHAR[], []::BIGINT[]) " +
		"ELSE MAP(['k' || i, 'z'], [i::BIGINT, NULL::BIGINT]) END", "MAP<STRING, BIGINT>", "to_json(m)::VARCHAR", kJSON},
	{"ls", "CASE WHEN i % 7 = 0 THEN NULL ELSE [{'x': i::BIGINT, 'y': [i::BIGINT, NULL, i::BIGINT + 1]}, NULL] END",
		"ARRAY<STRUCT<x: BIGINT, y: ARRAY<BIGINT>>>", "to_json(ls)::VARCHAR", kJSON},
}

func kinds() []kind {
	out := make([]kind, len(columns))
	for i, c := range columns {
		out[i] = c.kind
	}
	return out
}

// duckSelect is DuckDB's SELECT list generating the columns from i.
func duckSelect() string {
	parts := make([]string, len(columns))
	for i, c := range columns {
		parts[i] = c.gen + " AS " + c.name
	}
	return strings.Join(parts, ", ")
}

// duckReadList is DuckDB's SELECT list reading the columns back.
func duckReadList() string {
	parts := make([]string, len(columns))
	for i, c := range columns {
		parts[i] = c.name
		if c.duckRd != "" {
			parts[i] = c.duckRd
		}
	}
	return strings.Join(parts, ", ")
}

// iceColumns is the column list of icesql's CREATE TABLE.
func iceColumns() string {
	parts := make([]string, len(columns))
	for i, c := range columns {
		parts[i] = c.name + " " + c.ice
	}
	return strings.Join(parts, ", ")
}

// iceReadList is icesql's SELECT list reading the columns back.
func iceReadList() string {
	parts := make([]string, len(columns))
	for i, c := range columns {
		parts[i] = c.name
	}
	return strings.Join(parts, ", ")
}

// sqlString quotes s as a SQL string literal (both dialects double ').
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
