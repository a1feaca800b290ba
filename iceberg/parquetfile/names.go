package parquetfile

import (
	"fmt"
	"maps"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/icesql/icesql/iceberg"
)

// IcebergSchemaKey is the footer key holding the table schema as JSON,
// as Java's Parquet writer stores it: name-based readers find renamed and
// added columns through it.
const IcebergSchemaKey = "iceberg.schema"

func withIcebergSchema(s *iceberg.Schema, kv map[string]string) (map[string]string, error) {
	if _, set := kv[IcebergSchemaKey]; set {
		return kv, nil
	}
	js, err := s.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("parquetfile: schema JSON: %w", err)
	}
	out := maps.Clone(kv)
	if out == nil {
		out = map[string]string{}
	}
	out[IcebergSchemaKey] = string(js)
	return out, nil
}

// compatibleName is the Parquet column name of an Iceberg field name,
// as Java's AvroSchemaUtil.makeCompatibleName makes it: a name that is
// not a valid Avro name (a letter or '_', then letters, digits and '_')
// has each other UTF-16 unit replaced, a digit by "_" and the digit, any
// other unit by "_x" and its upper-case hex ("a b" -> "a_x20b",
// "1st" -> "_1st"). Readers bind columns by field id, so only name-based
// readers see the difference.
func compatibleName(name string) string {
	if name == "" || validAvroName(name) {
		return name
	}
	var b strings.Builder
	for i, u := range utf16.Encode([]rune(name)) {
		r := rune(u)
		isSurrogate := utf16.IsSurrogate(r)
		switch {
		case !isSurrogate && (r == '_' || unicode.IsLetter(r)):
			b.WriteRune(r)
		case !isSurrogate && i > 0 && unicode.Is(unicode.Nd, r):
			b.WriteRune(r)
		case !isSurrogate && unicode.Is(unicode.Nd, r):
			b.WriteByte('_')
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "_x%X", u)
		}
	}
	return b.String()
}

func validAvroName(name string) bool {
	for i, r := range name {
		if r > 0xFFFF { // Java sees two surrogate units, neither a letter
			return false
		}
		if r == '_' || unicode.IsLetter(r) || i > 0 && unicode.Is(unicode.Nd, r) {
			continue
		}
		return false
	}
	return true
}
