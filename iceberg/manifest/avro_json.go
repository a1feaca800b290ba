package manifest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/icesql/icesql/iceberg"
)

// obj is a JSON object that keeps its key order, so generated Avro schemas
// read like Java's and are stable byte for byte.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) { return appendJSON(nil, o) }

// appendJSON renders generated schema values without reflection: a
// commit writes a manifest and a list, and encoding/json's reflection and
// re-compaction of nested MarshalJSON output cost more than the files.
func appendJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case obj:
		b = append(b, '{')
		for i, p := range x {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, p.k); err != nil {
				return nil, err
			}
			b = append(b, ':')
			if b, err = appendJSON(b, p.v); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []obj:
		return appendJSONArray(b, x)
	case []any:
		return appendJSONArray(b, x)
	case string:
		if plainJSONString(x) {
			b = append(b, '"')
			b = append(b, x...)
			return append(b, '"'), nil
		}
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case nil:
		return append(b, "null"...), nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}

func appendJSONArray[T any](b []byte, xs []T) ([]byte, error) {
	b = append(b, '[')
	for i, e := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendJSON(b, e); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// plainJSONString reports whether s needs no escaping in JSON (as
// encoding/json escapes: quotes, backslash, control bytes, <, >, &, and
// anything beyond ASCII goes through json.Marshal).
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// avroField is an Avro record field carrying an Iceberg field id; optional
// fields become ["null", T] with a null default, the only union allowed.
func avroField(id int, name string, typ any, optional bool) obj {
	if optional {
		return obj{{"name", name}, {"type", []any{"null", typ}}, {"default", nil}, {"field-id", id}}
	}
	return obj{{"name", name}, {"type", typ}, {"field-id", id}}
}

func avroRecord(name string, fields []obj) obj {
	if fields == nil {
		fields = []obj{}
	}
	return obj{{"type", "record"}, {"name", name}, {"fields", fields}}
}

func avroList(elementID int, elem any) obj {
	return obj{{"type", "array"}, {"items", elem}, {"element-id", elementID}}
}

// avroIntKeyMap is Iceberg's encoding of a map with non-string keys: an
// array of key/value records marked with logicalType map.
func avroIntKeyMap(keyID, valueID int, value any) obj {
	rec := avroRecord(fmt.Sprintf("k%d_v%d", keyID, valueID), []obj{
		avroField(keyID, "key", "int", false),
		avroField(valueID, "value", value, false),
	})
	return obj{{"type", "array"}, {"items", rec}, {"logicalType", "map"}}
}

// typeNamer emits a named Avro type (fixed) in full the first time and by
// name afterwards, since Avro forbids defining a name twice.
type typeNamer map[string]bool

func (n typeNamer) named(name string, def obj) any {
	if n[name] {
		return name
	}
	n[name] = true
	return def
}

// avroPrimitive converts an Iceberg primitive type to its Avro schema,
// using Java's names for fixed types.
func avroPrimitive(t iceberg.Type, names typeNamer) (any, error) {
	switch t := t.(type) {
	case iceberg.BooleanType:
		return "boolean", nil
	case iceberg.IntType:
		return "int", nil
	case iceberg.LongType:
		return "long", nil
	case iceberg.FloatType:
		return "float", nil
	case iceberg.DoubleType:
		return "double", nil
	case iceberg.DateType:
		return obj{{"type", "int"}, {"logicalType", "date"}}, nil
	case iceberg.TimeType:
		return obj{{"type", "long"}, {"logicalType", "time-micros"}}, nil
	case iceberg.TimestampType:
		return obj{{"type", "long"}, {"logicalType", "timestamp-micros"}, {"adjust-to-utc", false}}, nil
	case iceberg.TimestampTzType:
		return obj{{"type", "long"}, {"logicalType", "timestamp-micros"}, {"adjust-to-utc", true}}, nil
	case iceberg.TimestampNsType:
		return obj{{"type", "long"}, {"logicalType", timestampNanos}, {"adjust-to-utc", false}}, nil
	case iceberg.TimestampTzNsType:
		return obj{{"type", "long"}, {"logicalType", timestampNanos}, {"adjust-to-utc", true}}, nil
	case iceberg.StringType:
		return "string", nil
	case iceberg.BinaryType:
		return "bytes", nil
	case iceberg.UUIDType:
		return names.named("uuid_fixed", obj{{"type", "fixed"}, {"name", "uuid_fixed"}, {"size", 16}, {"logicalType", "uuid"}}), nil
	case iceberg.FixedType:
		if t.Length <= 0 {
			return nil, fmt.Errorf("%w: fixed length %d", iceberg.ErrInvalidPartitionSpec, t.Length)
		}
		name := fmt.Sprintf("fixed_%d", t.Length)
		return names.named(name, obj{{"type", "fixed"}, {"name", name}, {"size", t.Length}}), nil
	case iceberg.DecimalType:
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return nil, fmt.Errorf("%w: %s", iceberg.ErrInvalidPartitionSpec, t)
		}
		name := fmt.Sprintf("decimal_%d_%d", t.Precision, t.Scale)
		return names.named(name, obj{{"type", "fixed"}, {"name", name}, {"size", decimalRequiredBytes(t.Precision)},
			{"logicalType", "decimal"}, {"precision", t.Precision}, {"scale", t.Scale}}), nil
	}
	return nil, fmt.Errorf("%w: partition type %s has no manifest encoding", iceberg.ErrUnsupported, t)
}

var decimalBytes = func() [39]int {
	var out [39]int
	ten := big.NewInt(10)
	for p := 1; p <= 38; p++ {
		limit := new(big.Int).Exp(ten, big.NewInt(int64(p)), nil)
		n := 1
		for new(big.Int).Lsh(big.NewInt(1), uint(8*n-1)).Cmp(limit) < 0 {
			n++
		}
		out[p] = n
	}
	return out
}()

// decimalRequiredBytes is the minimum fixed size that holds every unscaled
// value of the precision, as Java's TypeUtil.decimalRequiredBytes.
func decimalRequiredBytes(precision int) int { return decimalBytes[precision] }
