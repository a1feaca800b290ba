package arrowschema

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
)

// Iceberg's uuid is Arrow's canonical arrow.uuid extension type (storage
// FixedSizeBinary(16)), as in iceberg-go, so that it stays distinct from
// fixed[16] through every operator that keeps types. Only the in-memory
// form differs: on disk both are FIXED_LEN_BYTE_ARRAY(16), uuid with the
// UUID logical type.

// UUIDType returns the Arrow type of Iceberg's uuid.
func UUIDType() arrow.DataType { return extensions.NewUUIDType() }

// IsUUID reports whether dt is the Arrow type of Iceberg's uuid.
func IsUUID(dt arrow.DataType) bool {
	_, ok := dt.(*extensions.UUIDType)
	return ok
}

// Storage returns the storage array of an extension array (a uuid array's
// FixedSizeBinary(16)), or arr itself. The result is not retained.
func Storage(arr arrow.Array) arrow.Array {
	if x, ok := arr.(array.ExtensionArray); ok {
		return x.Storage()
	}
	return arr
}

// StorageBuilder returns the storage builder of an extension builder (a
// uuid builder's FixedSizeBinaryBuilder), or b itself.
func StorageBuilder(b array.Builder) array.Builder {
	if x, ok := b.(interface{ StorageBuilder() array.Builder }); ok {
		return x.StorageBuilder()
	}
	return b
}
