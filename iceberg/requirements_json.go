package iceberg

import (
	"encoding/json"
	"fmt"
)

// The REST catalog's TableRequirement JSON: an object with "type" and the
// asserted value. assert-ref-snapshot-id always writes "snapshot-id",
// null meaning the ref must not exist.

func marshalRequirement(typ string, fields ...any) ([]byte, error) {
	w := &orderedObject{}
	w.add("type", typ)
	for i := 0; i+1 < len(fields); i += 2 {
		w.add(fields[i].(string), fields[i+1])
	}
	return w.bytes()
}

func (AssertCreate) MarshalJSON() ([]byte, error) { return marshalRequirement("assert-create") }
func (r AssertTableUUID) MarshalJSON() ([]byte, error) {
	return marshalRequirement("assert-table-uuid", "uuid", r.UUID)
}
func (r AssertRefSnapshotID) MarshalJSON() ([]byte, error) {
	var id any = nil
	if r.SnapshotID != nil {
		id = *r.SnapshotID
	}
	return marshalRequirement("assert-ref-snapshot-id", "ref", r.Ref, "snapshot-id", id)
}
func (r AssertLastAssignedFieldID) MarshalJSON() ([]byte, error) {
	return marshalRequirement("assert-last-assigned-field-id", "last-assigned-field-id", r.LastAssignedFieldID)
}
func (r AssertCurrentSchemaID) MarshalJSON() ([]byte, error) {
	return marshalRequirement("assert-current-schema-id", "current-schema-id", r.SchemaID)
}
func (r AssertLastAssignedPartitionID) MarshalJSON() ([]byte, error) {
	return marshalRequirement("assert-last-assigned-partition-id", "last-assigned-partition-id", r.LastAssignedPartitionID)
}
func (r AssertDefaultSpecID) MarshalJSON() ([]byte, error) {
	return marshalRequirement("assert-default-spec-id", "default-spec-id", r.SpecID)
}
func (r AssertDefaultSortOrderID) MarshalJSON() ([]byte, error) {
	return marshalRequirement("assert-default-sort-order-id", "default-sort-order-id", r.SortOrderID)
}

// ParseRequirement reads one TableRequirement object. Errors wrap
// ErrInvalidMetadata (malformed) or ErrUnknownUpdate (unknown type).
func ParseRequirement(data []byte) (Requirement, error) {
	var j struct {
		Type                    *string         `json:"type"`
		UUID                    *string         `json:"uuid"`
		Ref                     *string         `json:"ref"`
		SnapshotID              json.RawMessage `json:"snapshot-id"`
		LastAssignedFieldID     *int            `json:"last-assigned-field-id"`
		CurrentSchemaID         *int            `json:"current-schema-id"`
		LastAssignedPartitionID *int            `json:"last-assigned-partition-id"`
		DefaultSpecID           *int            `json:"default-spec-id"`
		DefaultSortOrderID      *int            `json:"default-sort-order-id"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "table requirement: %v", err)
	}
	if j.Type == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "table requirement without \"type\"")
	}
	t := *j.Type
	need := func(p *int, field string) (int, error) {
		if p == nil {
			return 0, metaErrorf(ErrInvalidMetadata, "%s: missing %q", t, field)
		}
		return *p, nil
	}
	switch t {
	case "assert-create":
		return AssertCreate{}, nil
	case "assert-table-uuid":
		if j.UUID == nil {
			return nil, metaErrorf(ErrInvalidMetadata, "%s: missing \"uuid\"", t)
		}
		return AssertTableUUID{UUID: *j.UUID}, nil
	case "assert-ref-snapshot-id":
		if j.Ref == nil {
			return nil, metaErrorf(ErrInvalidMetadata, "%s: missing \"ref\"", t)
		}
		r := AssertRefSnapshotID{Ref: *j.Ref}
		if isJSONValue(j.SnapshotID) {
			var id int64
			if err := json.Unmarshal(j.SnapshotID, &id); err != nil {
				return nil, metaErrorf(ErrInvalidMetadata, "%s: snapshot-id: %v", t, err)
			}
			r.SnapshotID = &id
		}
		return r, nil
	case "assert-last-assigned-field-id":
		v, err := need(j.LastAssignedFieldID, "last-assigned-field-id")
		return AssertLastAssignedFieldID{LastAssignedFieldID: v}, err
	case "assert-current-schema-id":
		v, err := need(j.CurrentSchemaID, "current-schema-id")
		return AssertCurrentSchemaID{SchemaID: v}, err
	case "assert-last-assigned-partition-id":
		v, err := need(j.LastAssignedPartitionID, "last-assigned-partition-id")
		return AssertLastAssignedPartitionID{LastAssignedPartitionID: v}, err
	case "assert-default-spec-id":
		v, err := need(j.DefaultSpecID, "default-spec-id")
		return AssertDefaultSpecID{SpecID: v}, err
	case "assert-default-sort-order-id":
		v, err := need(j.DefaultSortOrderID, "default-sort-order-id")
		return AssertDefaultSortOrderID{SortOrderID: v}, err
	}
	return nil, fmt.Errorf("%w: requirement type %q", ErrUnknownUpdate, t)
}

// ParseRequirements reads a JSON array of TableRequirement objects.
func ParseRequirements(data []byte) ([]Requirement, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "table requirements: %v", err)
	}
	out := make([]Requirement, 0, len(raws))
	for _, r := range raws {
		q, err := ParseRequirement(r)
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}
