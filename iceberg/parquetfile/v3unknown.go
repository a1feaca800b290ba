package parquetfile

import "github.com/icesql/icesql/iceberg"

// omitted reports a type data files do not store: unknown (spec Appendix
// A: "Omit from data files").
func omitted(t iceberg.Type) bool {
	_, ok := t.(iceberg.UnknownType)
	return ok
}
