package iceberg

// Types added in format version 3. Tables of an older format version must
// not use them (see MinFormatVersion).

type (
	// TimestampNsType is timestamp_ns: nanoseconds since the epoch, no zone.
	TimestampNsType struct{}
	// TimestampTzNsType is timestamptz_ns: nanoseconds since the epoch, UTC.
	TimestampTzNsType struct{}
	// UnknownType is unknown: a column whose type is not known yet. Its
	// values are always null, it is never required, its defaults are null,
	// and data files do not store it. It may later be promoted to any
	// type.
	UnknownType struct{}
	// VariantType is variant: semi-structured values in the Parquet
	// Variant binary encoding (metadata and value). It is neither
	// primitive nor nested: it has no bounds, no defaults but null, no
	// order, and cannot be partitioned by.
	VariantType struct{}
)

func (TimestampNsType) String() string   { return "timestamp_ns" }
func (TimestampTzNsType) String() string { return "timestamptz_ns" }
func (UnknownType) String() string       { return "unknown" }
func (VariantType) String() string       { return "variant" }

func (TimestampNsType) isType()   {}
func (TimestampTzNsType) isType() {}
func (UnknownType) isType()       {}
func (VariantType) isType()       {}

func (TimestampNsType) isPrimitive()   {}
func (TimestampTzNsType) isPrimitive() {}
func (UnknownType) isPrimitive()       {}

// TimestampNano is nanoseconds since 1970-01-01T00:00:00 (UTC for
// timestamptz_ns): the Go value form of timestamp_ns and timestamptz_ns.
type TimestampNano int64

const (
	nanosPerMicro = 1_000
	nanosPerDay   = microsPerDay * nanosPerMicro
	nanosPerHour  = microsPerHour * nanosPerMicro
)

// Micros is the timestamp truncated (floor) to microseconds, the form the
// spec hashes for bucketing.
func (t TimestampNano) Micros() Timestamp {
	return Timestamp(floorDiv(int64(t), nanosPerMicro))
}

// IsNanoTimestamp reports timestamp_ns or timestamptz_ns.
func IsNanoTimestamp(t Type) bool {
	switch t.(type) {
	case TimestampNsType, TimestampTzNsType:
		return true
	}
	return false
}

// isZonedTimestamp reports timestamptz or timestamptz_ns.
func isZonedTimestamp(t Type) bool {
	switch t.(type) {
	case TimestampTzType, TimestampTzNsType:
		return true
	}
	return false
}

// MinFormatVersion is the lowest table format version in which type t
// (including every type nested in it) may appear.
func MinFormatVersion(t Type) int {
	switch tt := t.(type) {
	case TimestampNsType, TimestampTzNsType, UnknownType, VariantType, GeometryType, GeographyType:
		return 3
	case NestedType:
		v := 1
		for _, f := range tt.Fields() {
			v = max(v, MinFormatVersion(f.Type))
		}
		return v
	}
	return 1
}
