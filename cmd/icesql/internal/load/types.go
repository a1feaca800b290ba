// Package load reads CSV, JSON lines and Parquet files into Arrow record
// batches typed as a table's columns, for the shell's \copy.
package load

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// Column is a table column as DESCRIBE reports it.
type Column struct {
	Name string
	Type iceberg.Type
}

// ParseType reads a type name as DESCRIBE prints it (Spark spelling:
// int, bigint, decimal(10, 2), timestamp_ntz, array<string>,
// map<string, int>, struct<a: int, b: string>, ...).
func ParseType(s string) (iceberg.Type, error) {
	if strings.ContainsAny(s, "<>") {
		return parseNestedType(strings.TrimSpace(s))
	}
	return parsePrimitive(s)
}

// parsePrimitive reads a primitive type name.
func parsePrimitive(s string) (iceberg.Type, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "boolean", "bool":
		return iceberg.BooleanType{}, nil
	case "int", "integer":
		return iceberg.IntType{}, nil
	case "bigint", "long":
		return iceberg.LongType{}, nil
	case "float", "real":
		return iceberg.FloatType{}, nil
	case "double":
		return iceberg.DoubleType{}, nil
	case "date":
		return iceberg.DateType{}, nil
	case "time":
		return iceberg.TimeType{}, nil
	case "timestamp_ntz":
		return iceberg.TimestampType{}, nil
	case "timestamp", "timestamptz", "timestamp_ltz":
		return iceberg.TimestampTzType{}, nil
	case "timestamp_ns":
		return iceberg.TimestampNsType{}, nil
	case "timestamptz_ns":
		return iceberg.TimestampTzNsType{}, nil
	case "string", "varchar", "text":
		return iceberg.StringType{}, nil
	case "uuid":
		return iceberg.UUIDType{}, nil
	case "binary":
		return iceberg.BinaryType{}, nil
	}
	if g, ok, err := parseGeoType(t); ok {
		return g, err
	}
	if args, ok := cutCall(t, "decimal"); ok && len(args) == 2 {
		p, err1 := strconv.Atoi(args[0])
		sc, err2 := strconv.Atoi(args[1])
		if err1 == nil && err2 == nil && p >= 1 && p <= 38 && sc >= 0 && sc <= p {
			return iceberg.DecimalType{Precision: p, Scale: sc}, nil
		}
	}
	if args, ok := cutCall(t, "fixed"); ok && len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		if err == nil && n > 0 {
			return iceberg.FixedType{Length: n}, nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrUnsupportedType, s)
}

// cutCall splits "name(a, b)" into its arguments.
func cutCall(t, name string) ([]string, bool) {
	rest, ok := strings.CutPrefix(t, name+"(")
	if !ok || !strings.HasSuffix(rest, ")") {
		return nil, false
	}
	parts := strings.Split(strings.TrimSuffix(rest, ")"), ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts, true
}

// ColumnsFromDescribe turns DESCRIBE rows (col_name, data_type) into
// columns, stopping at the blank row before the partitioning section.
func ColumnsFromDescribe(rows [][2]string) ([]Column, error) {
	var cols []Column
	for _, r := range rows {
		if r[0] == "" || strings.HasPrefix(r[0], "#") {
			break
		}
		t, err := ParseType(r[1])
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", r[0], err)
		}
		cols = append(cols, Column{Name: r[0], Type: t})
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("%w: table has no columns", ErrBadInput)
	}
	return cols, nil
}
