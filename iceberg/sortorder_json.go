package iceberg

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// IsUnsorted reports whether the order has no fields.
func (o *SortOrder) IsUnsorted() bool { return len(o.Fields) == 0 }

// SameOrder reports whether two orders sort the same way (ids ignored).
func (o *SortOrder) SameOrder(other *SortOrder) bool {
	if len(o.Fields) != len(other.Fields) {
		return false
	}
	for i, f := range o.Fields {
		g := other.Fields[i]
		if f.SourceID != g.SourceID || f.Direction != g.Direction || f.NullOrder != g.NullOrder ||
			f.Transform == nil || g.Transform == nil || f.Transform.String() != g.Transform.String() {
			return false
		}
	}
	return true
}

// Equals reports whether two orders are identical, order id included.
func (o *SortOrder) Equals(other *SortOrder) bool {
	return o.OrderID == other.OrderID && o.SameOrder(other)
}

type sortFieldJSON struct {
	Transform string `json:"transform"`
	SourceID  *int   `json:"source-id,omitempty"`
	SourceIDs []int  `json:"source-ids,omitempty"`
	Direction string `json:"direction"`
	NullOrder string `json:"null-order"`
}

// MarshalJSON writes {"transform","source-id","direction","null-order"}.
func (f SortField) MarshalJSON() ([]byte, error) {
	if f.Transform == nil {
		return nil, fmt.Errorf("%w: sort field on source %d has no transform", ErrInvalidMetadata, f.SourceID)
	}
	src := f.SourceID
	return json.Marshal(sortFieldJSON{Transform: f.Transform.String(), SourceID: &src,
		Direction: string(f.Direction), NullOrder: string(f.NullOrder)})
}

// UnmarshalJSON reads a sort field; direction and null order are matched
// case-insensitively and unknown transforms become UnknownTransform.
func (f *SortField) UnmarshalJSON(b []byte) error {
	var j sortFieldJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("%w: sort field: %v", ErrInvalidMetadata, err)
	}
	src, err := singleSourceID(j.SourceID, j.SourceIDs)
	if err != nil {
		return fmt.Errorf("%w: sort field: %w", ErrInvalidMetadata, err)
	}
	t, err := transformFromJSON(j.Transform)
	if err != nil {
		return fmt.Errorf("%w: sort field on source %d: %v", ErrInvalidMetadata, src, err)
	}
	dir, err := ParseSortDirection(j.Direction)
	if err != nil {
		return err
	}
	nulls, err := ParseNullOrder(j.NullOrder)
	if err != nil {
		return err
	}
	*f = SortField{SourceID: src, Transform: t, Direction: dir, NullOrder: nulls}
	return nil
}

// ParseSortDirection accepts "asc"/"desc" in any case.
func ParseSortDirection(s string) (SortDirection, error) {
	switch strings.ToLower(s) {
	case "asc":
		return SortAsc, nil
	case "desc":
		return SortDesc, nil
	}
	return "", fmt.Errorf("%w: sort direction %q is not asc or desc", ErrInvalidMetadata, s)
}

// ParseNullOrder accepts "nulls-first"/"nulls-last" in any case.
func ParseNullOrder(s string) (NullOrder, error) {
	switch strings.ToLower(s) {
	case "nulls-first":
		return NullsFirst, nil
	case "nulls-last":
		return NullsLast, nil
	}
	return "", fmt.Errorf("%w: null order %q is not nulls-first or nulls-last", ErrInvalidMetadata, s)
}

type sortOrderJSON struct {
	OrderID *int            `json:"order-id"`
	Fields  json.RawMessage `json:"fields"`
}

// MarshalJSON writes {"order-id":N,"fields":[...]}.
func (o SortOrder) MarshalJSON() ([]byte, error) {
	fields := o.Fields
	if fields == nil {
		fields = []SortField{}
	}
	return json.Marshal(struct {
		OrderID int         `json:"order-id"`
		Fields  []SortField `json:"fields"`
	}{o.OrderID, fields})
}

// UnmarshalJSON reads a sort order object.
func (o *SortOrder) UnmarshalJSON(b []byte) error {
	var j sortOrderJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("%w: sort order: %v", ErrInvalidMetadata, err)
	}
	if j.OrderID == nil {
		return fmt.Errorf("%w: sort order without order-id", ErrInvalidMetadata)
	}
	if len(j.Fields) == 0 || string(j.Fields) == "null" {
		return fmt.Errorf("%w: sort order %d without fields", ErrInvalidMetadata, *j.OrderID)
	}
	var fields []SortField
	if err := json.Unmarshal(j.Fields, &fields); err != nil {
		if errors.Is(err, ErrInvalidMetadata) {
			return err
		}
		return fmt.Errorf("%w: sort order %d fields: %v", ErrInvalidMetadata, *j.OrderID, err)
	}
	if fields == nil {
		fields = []SortField{}
	}
	*o = SortOrder{OrderID: *j.OrderID, Fields: fields}
	return nil
}

// Validate checks an order for writing under schema: order id 0 is exactly
// the unsorted order, every source is a primitive column not in a list or
// map, transforms are known and apply to the source type, and directions
// and null orders are valid.
func (o *SortOrder) Validate(schema *Schema) error {
	if (o.OrderID == 0) != o.IsUnsorted() {
		return fmt.Errorf("%w: sort order id 0 is reserved for the unsorted order (order %d has %d fields)", ErrInvalidMetadata, o.OrderID, len(o.Fields))
	}
	for _, f := range o.Fields {
		if f.Transform == nil {
			return fmt.Errorf("%w: sort field on source %d has no transform", ErrInvalidMetadata, f.SourceID)
		}
		if _, unknown := f.Transform.(UnknownTransform); unknown {
			return fmt.Errorf("%w: sort field on source %d: unknown transform %q", ErrInvalidMetadata, f.SourceID, f.Transform)
		}
		if f.Direction != SortAsc && f.Direction != SortDesc {
			return fmt.Errorf("%w: sort direction %q", ErrInvalidMetadata, f.Direction)
		}
		if f.NullOrder != NullsFirst && f.NullOrder != NullsLast {
			return fmt.Errorf("%w: null order %q", ErrInvalidMetadata, f.NullOrder)
		}
		src, ok := schema.FindFieldByID(f.SourceID)
		if !ok {
			return fmt.Errorf("%w: sort source field %d: %w", ErrInvalidMetadata, f.SourceID, ErrNoSuchField)
		}
		if err := checkPartitionSource(schema, src); err != nil {
			return fmt.Errorf("%w: sort field: %v", ErrInvalidMetadata, err)
		}
		if !f.Transform.CanTransform(src.Type) {
			return fmt.Errorf("%w: %s cannot be applied to %s column %q", ErrInvalidMetadata, f.Transform, src.Type, src.Name)
		}
	}
	return nil
}

// SortOrderBuilder builds a validated sort order:
//
//	order, err := NewSortOrderBuilder(schema).Asc("id").Desc("ts").Build()
//
// The order id defaults to 1 (0 for an order with no fields).
type SortOrderBuilder struct {
	schema  *Schema
	orderID *int
	fields  []SortField
	err     error
}

// NewSortOrderBuilder starts an order bound to schema.
func NewSortOrderBuilder(schema *Schema) *SortOrderBuilder {
	return &SortOrderBuilder{schema: schema}
}

// WithOrderID sets the order id.
func (b *SortOrderBuilder) WithOrderID(id int) *SortOrderBuilder {
	b.orderID = &id
	return b
}

// Asc sorts ascending by a column, nulls first (Java's default).
func (b *SortOrderBuilder) Asc(source string) *SortOrderBuilder {
	return b.Add(source, IdentityTransform{}, SortAsc, NullsFirst)
}

// Desc sorts descending by a column, nulls last (Java's default).
func (b *SortOrderBuilder) Desc(source string) *SortOrderBuilder {
	return b.Add(source, IdentityTransform{}, SortDesc, NullsLast)
}

// Add sorts by a transform of a column (dotted name for nested fields).
func (b *SortOrderBuilder) Add(source string, t Transform, dir SortDirection, nulls NullOrder) *SortOrderBuilder {
	if b.err != nil {
		return b
	}
	f, ok := b.schema.FindFieldByName(source)
	if !ok {
		b.err = fmt.Errorf("%w: sort column %q: %w", ErrInvalidMetadata, source, ErrNoSuchField)
		return b
	}
	b.fields = append(b.fields, SortField{SourceID: f.ID, Transform: t, Direction: dir, NullOrder: nulls})
	return b
}

// Build validates and returns the order.
func (b *SortOrderBuilder) Build() (*SortOrder, error) {
	if b.err != nil {
		return nil, b.err
	}
	o := &SortOrder{OrderID: 1, Fields: append([]SortField{}, b.fields...)}
	if len(b.fields) == 0 {
		o.OrderID = 0
	}
	if b.orderID != nil {
		o.OrderID = *b.orderID
	}
	if err := o.Validate(b.schema); err != nil {
		return nil, err
	}
	return o, nil
}
