package parser

import (
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// typ reads a column type in Spark or MySQL spelling and maps it to an
// Iceberg type with field ids left 0. TIMESTAMP is timestamptz, as in
// Spark; TIMESTAMP_NTZ and DATETIME are timestamp without zone.
func (p *cursor) typ() (iceberg.Type, error) {
	t := p.peek()
	if t.kind != tkIdent {
		return nil, p.errorf("expected a type, found %s", p.describe())
	}
	p.i++
	name := strings.ToUpper(t.val)
	switch name {
	case "STRING", "TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT":
		return iceberg.StringType{}, nil
	case "VARCHAR", "CHAR", "CHARACTER", "NVARCHAR", "NCHAR":
		if name == "CHARACTER" {
			p.acceptKw("VARYING")
		}
		if _, err := p.optLength(name); err != nil {
			return nil, err
		}
		return iceberg.StringType{}, nil
	case "INT", "INTEGER", "TINYINT", "SMALLINT", "MEDIUMINT", "BYTE", "SHORT":
		if _, err := p.optLength(name); err != nil {
			return nil, err
		}
		return iceberg.IntType{}, nil
	case "BIGINT", "LONG":
		if _, err := p.optLength(name); err != nil {
			return nil, err
		}
		return iceberg.LongType{}, nil
	case "FLOAT", "REAL":
		return iceberg.FloatType{}, nil
	case "DOUBLE":
		p.acceptKw("PRECISION")
		return iceberg.DoubleType{}, nil
	case "DECIMAL", "NUMERIC", "DEC":
		return p.decimal()
	case "BOOLEAN", "BOOL":
		return iceberg.BooleanType{}, nil
	case "DATE":
		return iceberg.DateType{}, nil
	case "TIME":
		return iceberg.TimeType{}, nil
	case "TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMPTZ":
		return iceberg.TimestampTzType{}, nil
	case "TIMESTAMP_NTZ", "DATETIME":
		return iceberg.TimestampType{}, nil
	case "TIMESTAMP_NS", "TIMESTAMP_NTZ_NS":
		// Iceberg v3's names: timestamp_ns has no zone, like timestamp
		return iceberg.TimestampNsType{}, nil
	case "TIMESTAMPTZ_NS", "TIMESTAMP_LTZ_NS":
		return iceberg.TimestampTzNsType{}, nil
	case "VARIANT":
		return iceberg.VariantType{}, nil
	case "GEOMETRY", "GEOGRAPHY":
		return p.geoType(name)
	case "UNKNOWN", "VOID":
		// Iceberg v3's unknown; VOID is Spark's name for its null type
		return iceberg.UnknownType{}, nil
	case "BINARY", "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BYTEA":
		if _, err := p.optLength(name); err != nil {
			return nil, err
		}
		return iceberg.BinaryType{}, nil
	case "UUID":
		return iceberg.UUIDType{}, nil
	case "FIXED":
		n, err := p.optLength(name)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return nil, newParseError(p.c.src, t.pos, "FIXED needs a length: FIXED(n)")
		}
		return iceberg.FixedType{Length: n}, nil
	case "ARRAY", "LIST":
		if err := p.expectOp("<"); err != nil {
			return nil, err
		}
		elem, err := p.nestedTyp()
		if err != nil {
			return nil, err
		}
		return &iceberg.ListType{Element: elem}, p.expectOp(">")
	case "MAP":
		if err := p.expectOp("<"); err != nil {
			return nil, err
		}
		k, err := p.nestedTyp()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
		v, err := p.nestedTyp()
		if err != nil {
			return nil, err
		}
		return &iceberg.MapType{Key: k, Value: v}, p.expectOp(">")
	case "STRUCT":
		return p.structType()
	}
	return nil, newParseError(p.c.src, t.pos, "unknown type "+t.val)
}

// nestedTyp reads the type of a struct field, list element or map key or
// value. UNKNOWN is refused there: the engine keeps unknown values as
// Arrow null columns, which it supports only at the top level.
func (p *cursor) nestedTyp() (iceberg.Type, error) {
	at := p.pos()
	t, err := p.typ()
	if err != nil {
		return nil, err
	}
	if _, ok := t.(iceberg.UnknownType); ok {
		return nil, newParseError(p.c.src, at, "UNKNOWN (VOID) is supported only as the type of a top-level column")
	}
	return t, nil
}

// optLength reads an optional (n) after a type name; 0 when absent.
func (p *cursor) optLength(what string) (int, error) {
	if !p.acceptOp("(") {
		return 0, nil
	}
	n, err := p.smallInt(what+" length", 1)
	if err != nil {
		return 0, err
	}
	return n, p.expectOp(")")
}

// decimal reads [(p[, s])]; Spark's default is decimal(10,0).
func (p *cursor) decimal() (iceberg.Type, error) {
	at := p.pos()
	prec, scale := 10, 0
	if p.acceptOp("(") {
		var err error
		if prec, err = p.smallInt("decimal precision", 1); err != nil {
			return nil, err
		}
		if p.acceptOp(",") {
			if scale, err = p.smallInt("decimal scale", 0); err != nil {
				return nil, err
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	if prec > 38 || scale > prec {
		return nil, newParseError(p.c.src, at, "decimal precision must be 1..38 and scale 0..precision")
	}
	return iceberg.DecimalType{Precision: prec, Scale: scale}, nil
}

// structType reads <name[:] type [NOT NULL] [COMMENT 'c'], ...>.
func (p *cursor) structType() (iceberg.Type, error) {
	if err := p.expectOp("<"); err != nil {
		return nil, err
	}
	st := &iceberg.StructType{}
	if p.acceptOp(">") {
		return st, nil
	}
	for {
		name, err := p.ident("a struct field name")
		if err != nil {
			return nil, err
		}
		p.acceptOp(":")
		ft, err := p.nestedTyp()
		if err != nil {
			return nil, err
		}
		f := iceberg.NestedField{Name: name, Type: ft}
		for {
			if p.acceptKw("NOT", "NULL") {
				f.Required = true
			} else if p.acceptKw("COMMENT") {
				if f.Doc, err = p.str("a comment"); err != nil {
					return nil, err
				}
			} else {
				break
			}
		}
		st.FieldList = append(st.FieldList, f)
		if !p.acceptOp(",") {
			break
		}
	}
	return st, p.expectOp(">")
}

// TypeSQL prints an Iceberg type in the SQL spelling typ parses back.
func TypeSQL(t iceberg.Type) string {
	switch x := t.(type) {
	case iceberg.BooleanType:
		return "BOOLEAN"
	case iceberg.IntType:
		return "INT"
	case iceberg.LongType:
		return "BIGINT"
	case iceberg.FloatType:
		return "FLOAT"
	case iceberg.DoubleType:
		return "DOUBLE"
	case iceberg.DateType:
		return "DATE"
	case iceberg.TimeType:
		return "TIME"
	case iceberg.TimestampType:
		return "TIMESTAMP_NTZ"
	case iceberg.TimestampTzType:
		return "TIMESTAMP"
	case iceberg.TimestampNsType:
		return "TIMESTAMP_NS"
	case iceberg.TimestampTzNsType:
		return "TIMESTAMPTZ_NS"
	case iceberg.UnknownType:
		return "UNKNOWN"
	case iceberg.VariantType:
		return "VARIANT"
	case iceberg.GeometryType, iceberg.GeographyType:
		return geoTypeSQL(x)
	case iceberg.StringType:
		return "STRING"
	case iceberg.UUIDType:
		return "UUID"
	case iceberg.BinaryType:
		return "BINARY"
	case iceberg.DecimalType:
		return "DECIMAL(" + itoa(x.Precision) + ", " + itoa(x.Scale) + ")"
	case iceberg.FixedType:
		return "FIXED(" + itoa(x.Length) + ")"
	case *iceberg.ListType:
		return "ARRAY<" + TypeSQL(x.Element) + ">"
	case *iceberg.MapType:
		return "MAP<" + TypeSQL(x.Key) + ", " + TypeSQL(x.Value) + ">"
	case *iceberg.StructType:
		var b strings.Builder
		b.WriteString("STRUCT<")
		for i, f := range x.FieldList {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(f.Name) + ": " + TypeSQL(f.Type))
			if f.Required {
				b.WriteString(" NOT NULL")
			}
			if f.Doc != "" {
				b.WriteString(" COMMENT " + QuoteString(f.Doc))
			}
		}
		b.WriteString(">")
		return b.String()
	}
	return t.String()
}
