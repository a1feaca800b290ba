package iceberg

// PartitionFieldIDStart is the first partition field id; Java assigns ids
// from 1000 so they never collide with schema field ids in file metadata.
const PartitionFieldIDStart = 1000

// Transform maps a source value to a partition value. Implementations are
// comparable values (identity, bucket[N], truncate[W], year, month, day,
// hour, void) and are defined in transforms.go.
type Transform interface {
	// String is the transform's name in metadata ("bucket[16]", "day").
	String() string
	// CanTransform reports whether the transform applies to a source type.
	CanTransform(src Type) bool
	// ResultType is the partition value's type for a source type.
	ResultType(src Type) Type
	// Apply transforms one value in the Go value form; nil maps to nil.
	Apply(v any) any
}

// PartitionField is one field of a partition spec.
type PartitionField struct {
	SourceID  int
	FieldID   int
	Name      string
	Transform Transform
}

// PartitionSpec is an immutable partition spec.
type PartitionSpec struct {
	ID     int
	Fields []PartitionField
}

// UnpartitionedSpec is spec 0 with no fields.
var UnpartitionedSpec = &PartitionSpec{ID: 0}

// IsUnpartitioned reports whether the spec has no fields (or only void ones).
func (p *PartitionSpec) IsUnpartitioned() bool {
	for _, f := range p.Fields {
		if f.Transform.String() != "void" {
			return false
		}
	}
	return true
}

// SortDirection is asc or desc.
type SortDirection string

const (
	SortAsc  SortDirection = "asc"
	SortDesc SortDirection = "desc"
)

// NullOrder is nulls-first or nulls-last.
type NullOrder string

const (
	NullsFirst NullOrder = "nulls-first"
	NullsLast  NullOrder = "nulls-last"
)

// SortField is one field of a sort order.
type SortField struct {
	SourceID  int
	Transform Transform
	Direction SortDirection
	NullOrder NullOrder
}

// SortOrder is an immutable sort order; order id 0 is "unsorted".
type SortOrder struct {
	OrderID int
	Fields  []SortField
}

// UnsortedOrder is sort order 0 with no fields.
var UnsortedOrder = &SortOrder{OrderID: 0}
