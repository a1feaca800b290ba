package arrowschema

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/icesql/icesql/iceberg"
)

// SQLName names the Iceberg type an engine (Arrow) type holds in the SQL
// spelling CREATE TABLE takes and Spark prints: BIGINT, STRING, DATE,
// TIMESTAMP (with zone), TIMESTAMP_NTZ, DECIMAL(10, 2), ARRAY<INT>,
// MAP<STRING, INT>, STRUCT<a: INT>. Every message a user reads names
// types with it (in upper case) or its lower-case form (DESCRIBE), never
// with Arrow's names (utf8, date32, timestamp[us, tz=UTC]).
func SQLName(t arrow.DataType) string {
	switch x := t.(type) {
	case *arrow.BooleanType:
		return "BOOLEAN"
	case *arrow.Int8Type:
		return "TINYINT"
	case *arrow.Int16Type:
		return "SMALLINT"
	case *arrow.Int32Type:
		return "INT"
	case *arrow.Int64Type:
		return "BIGINT"
	case *arrow.Float32Type:
		return "FLOAT"
	case *arrow.Float64Type:
		return "DOUBLE"
	case *arrow.Decimal128Type:
		return "DECIMAL(" + strconv.Itoa(int(x.Precision)) + ", " + strconv.Itoa(int(x.Scale)) + ")"
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return "STRING"
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return "BINARY"
	case *arrow.Date32Type, *arrow.Date64Type:
		return "DATE"
	case *arrow.Time64Type, *arrow.Time32Type:
		return "TIME"
	case *arrow.TimestampType:
		// Spark's TIMESTAMP is Iceberg's timestamptz; TIMESTAMP_NTZ its
		// timestamp (without zone).
		name := "TIMESTAMP"
		if x.TimeZone == "" {
			name = "TIMESTAMP_NTZ"
		}
		if x.Unit == arrow.Nanosecond {
			if x.TimeZone == "" {
				return "TIMESTAMP_NS"
			}
			return "TIMESTAMPTZ_NS"
		}
		return name
	case *arrow.NullType:
		return "VOID"
	case *arrow.FixedSizeBinaryType:
		return "FIXED(" + strconv.Itoa(x.ByteWidth) + ")"
	case *extensions.UUIDType:
		return "UUID"
	case *extensions.VariantType:
		return "VARIANT"
	case *GeoType:
		return iceberg.GeoTypeSQL(x.Iceberg, quoteString)
	case *arrow.ListType:
		return "ARRAY<" + SQLName(x.Elem()) + ">"
	case *arrow.LargeListType:
		return "ARRAY<" + SQLName(x.Elem()) + ">"
	case *arrow.MapType:
		return "MAP<" + SQLName(x.KeyType()) + ", " + SQLName(x.ItemType()) + ">"
	case *arrow.StructType:
		var b strings.Builder
		b.WriteString("STRUCT<")
		for i, f := range x.Fields() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quoteIdent(f.Name) + ": " + SQLName(f.Type))
			if !f.Nullable {
				b.WriteString(" NOT NULL")
			}
		}
		b.WriteString(">")
		return b.String()
	}
	return strings.ToUpper(t.String())
}

// SQLTypeName is the bare type name of SQLName, without parameters or
// element types (DECIMAL, FIXED, ARRAY, MAP, STRUCT, GEOMETRY): database/sql's
// DatabaseTypeName.
func SQLTypeName(t arrow.DataType) string {
	name := SQLName(t)
	if i := strings.IndexAny(name, "(<"); i >= 0 {
		return name[:i]
	}
	return name
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// quoteIdent back-quotes a struct field name that is not a plain
// identifier.
func quoteIdent(s string) string {
	plain := s != "" && !(s[0] >= '0' && s[0] <= '9')
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// IcebergSQLName is SQLName of an Iceberg type.
func IcebergSQLName(t iceberg.Type) string {
	a, err := TypeToArrow(t)
	if err != nil {
		return strings.ToUpper(t.String())
	}
	return SQLName(a)
}
