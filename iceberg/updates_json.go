package iceberg

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The REST catalog's TableUpdate JSON (rest-catalog-open-api.yaml): an
// object with "action" and the fields of that action. MarshalJSON on each
// update type writes it, ParseUpdate reads it back.

// ErrUnknownUpdate is returned by ParseUpdate and ParseRequirement for an
// action or requirement type this version does not apply; the REST spec
// requires a server to refuse those (400) rather than skip them.
var ErrUnknownUpdate = fmt.Errorf("%w: unknown table update or requirement", ErrUnsupported)

func marshalAction(action string, fields ...any) ([]byte, error) {
	w := &orderedObject{}
	w.add("action", action)
	for i := 0; i+1 < len(fields); i += 2 {
		w.add(fields[i].(string), fields[i+1])
	}
	return w.bytes()
}

func (u AssignUUIDUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "uuid", u.UUID)
}
func (u UpgradeFormatVersionUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "format-version", u.FormatVersion)
}
func (u AddSchemaUpdate) MarshalJSON() ([]byte, error) {
	if u.Schema == nil {
		return nil, metaErrorf(ErrInvalidSchema, "add-schema without a schema")
	}
	if u.LastColumnID > 0 {
		return marshalAction(u.Action(), "schema", u.Schema, "last-column-id", u.LastColumnID)
	}
	return marshalAction(u.Action(), "schema", u.Schema)
}
func (u SetCurrentSchemaUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "schema-id", u.SchemaID)
}
func (u AddPartitionSpecUpdate) MarshalJSON() ([]byte, error) {
	if u.Spec == nil {
		return nil, metaErrorf(ErrInvalidPartitionSpec, "add-spec without a spec")
	}
	return marshalAction(u.Action(), "spec", u.Spec)
}
func (u SetDefaultSpecUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "spec-id", u.SpecID)
}
func (u AddSortOrderUpdate) MarshalJSON() ([]byte, error) {
	if u.SortOrder == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "add-sort-order without a sort order")
	}
	return marshalAction(u.Action(), "sort-order", u.SortOrder)
}
func (u SetDefaultSortOrderUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "sort-order-id", u.SortOrderID)
}
func (u AddSnapshotUpdate) MarshalJSON() ([]byte, error) {
	if u.Snapshot == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "add-snapshot without a snapshot")
	}
	s, err := u.Snapshot.marshal()
	if err != nil {
		return nil, err
	}
	return marshalAction(u.Action(), "snapshot", json.RawMessage(s))
}

// MarshalJSON flattens the ref into the update, as the spec's allOf
// (BaseUpdate, SnapshotReference) does.
func (u SetSnapshotRefUpdate) MarshalJSON() ([]byte, error) {
	f := []any{"ref-name", u.Name, "type", u.Ref.Type, "snapshot-id", u.Ref.SnapshotID}
	if u.Ref.MaxRefAgeMs != nil {
		f = append(f, "max-ref-age-ms", *u.Ref.MaxRefAgeMs)
	}
	if u.Ref.MaxSnapshotAgeMs != nil {
		f = append(f, "max-snapshot-age-ms", *u.Ref.MaxSnapshotAgeMs)
	}
	if u.Ref.MinSnapshotsToKeep != nil {
		f = append(f, "min-snapshots-to-keep", *u.Ref.MinSnapshotsToKeep)
	}
	return marshalAction(u.Action(), f...)
}
func (u RemoveSnapshotsUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "snapshot-ids", nonNilSlice(u.SnapshotIDs))
}
func (u RemoveSnapshotRefUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "ref-name", u.Name)
}
func (u SetLocationUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "location", u.Location)
}
func (u SetPropertiesUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "updates", nonNilMap(u.Updates))
}
func (u RemovePropertiesUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "removals", nonNilSlice(u.Removals))
}
func (u SetStatisticsUpdate) MarshalJSON() ([]byte, error) {
	st := u.Statistics
	st.BlobMetadata = nonNilSlice(st.BlobMetadata)
	return marshalAction(u.Action(), "snapshot-id", st.SnapshotID, "statistics", st)
}
func (u RemoveStatisticsUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "snapshot-id", u.SnapshotID)
}
func (u SetPartitionStatisticsUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "partition-statistics", u.Statistics)
}
func (u RemovePartitionStatisticsUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "snapshot-id", u.SnapshotID)
}
func (u RemoveSchemasUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "schema-ids", nonNilSlice(u.SchemaIDs))
}
func (u RemovePartitionSpecsUpdate) MarshalJSON() ([]byte, error) {
	return marshalAction(u.Action(), "spec-ids", nonNilSlice(u.SpecIDs))
}

// updateJSON has the fields of every update action.
type updateJSON struct {
	Action              *string                  `json:"action"`
	UUID                *string                  `json:"uuid"`
	FormatVersion       *int                     `json:"format-version"`
	Schema              json.RawMessage          `json:"schema"`
	LastColumnID        *int                     `json:"last-column-id"`
	SchemaID            *int                     `json:"schema-id"`
	Spec                json.RawMessage          `json:"spec"`
	SpecID              *int                     `json:"spec-id"`
	SortOrder           json.RawMessage          `json:"sort-order"`
	SortOrderID         *int                     `json:"sort-order-id"`
	Snapshot            json.RawMessage          `json:"snapshot"`
	RefName             *string                  `json:"ref-name"`
	Type                *string                  `json:"type"`
	SnapshotID          *int64                   `json:"snapshot-id"`
	MaxRefAgeMs         *int64                   `json:"max-ref-age-ms"`
	MaxSnapshotAgeMs    *int64                   `json:"max-snapshot-age-ms"`
	MinSnapshotsToKeep  *int                     `json:"min-snapshots-to-keep"`
	SnapshotIDs         *[]int64                 `json:"snapshot-ids"`
	Location            *string                  `json:"location"`
	Updates             *map[string]string       `json:"updates"`
	Removals            *[]string                `json:"removals"`
	Statistics          *StatisticsFile          `json:"statistics"`
	PartitionStatistics *PartitionStatisticsFile `json:"partition-statistics"`
	SchemaIDs           *[]int                   `json:"schema-ids"`
	SpecIDs             *[]int                   `json:"spec-ids"`
}

func missing(action, field string) error {
	return metaErrorf(ErrInvalidMetadata, "%s: missing %q", action, field)
}

// ParseUpdate reads one TableUpdate object. Errors wrap ErrInvalidMetadata
// (malformed) or ErrUnknownUpdate (an action not applied here).
func ParseUpdate(data []byte) (Update, error) {
	var j updateJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "table update: %v", err)
	}
	if j.Action == nil {
		return nil, metaErrorf(ErrInvalidMetadata, "table update without \"action\"")
	}
	a := *j.Action
	switch a {
	case "assign-uuid":
		if j.UUID == nil {
			return nil, missing(a, "uuid")
		}
		return AssignUUIDUpdate{UUID: *j.UUID}, nil
	case "upgrade-format-version":
		if j.FormatVersion == nil {
			return nil, missing(a, "format-version")
		}
		return UpgradeFormatVersionUpdate{FormatVersion: *j.FormatVersion}, nil
	case "add-schema":
		if !isJSONValue(j.Schema) {
			return nil, missing(a, "schema")
		}
		s, err := ParseSchemaJSON(j.Schema)
		if err != nil {
			return nil, err
		}
		u := AddSchemaUpdate{Schema: s}
		if j.LastColumnID != nil {
			u.LastColumnID = *j.LastColumnID
		}
		return u, nil
	case "set-current-schema":
		if j.SchemaID == nil {
			return nil, missing(a, "schema-id")
		}
		return SetCurrentSchemaUpdate{SchemaID: *j.SchemaID}, nil
	case "add-spec":
		spec, err := parseSpecUpdate(j.Spec)
		if err != nil {
			return nil, err
		}
		return AddPartitionSpecUpdate{Spec: spec}, nil
	case "set-default-spec":
		if j.SpecID == nil {
			return nil, missing(a, "spec-id")
		}
		return SetDefaultSpecUpdate{SpecID: *j.SpecID}, nil
	case "add-sort-order":
		order, err := parseSortOrderUpdate(j.SortOrder)
		if err != nil {
			return nil, err
		}
		return AddSortOrderUpdate{SortOrder: order}, nil
	case "set-default-sort-order":
		if j.SortOrderID == nil {
			return nil, missing(a, "sort-order-id")
		}
		return SetDefaultSortOrderUpdate{SortOrderID: *j.SortOrderID}, nil
	case "add-snapshot":
		if !isJSONValue(j.Snapshot) {
			return nil, missing(a, "snapshot")
		}
		s, err := snapshotFromJSON(j.Snapshot)
		if err != nil {
			return nil, metaErrorf(ErrInvalidMetadata, "add-snapshot: %v", err)
		}
		return AddSnapshotUpdate{Snapshot: s}, nil
	case "set-snapshot-ref":
		if j.RefName == nil || j.Type == nil || j.SnapshotID == nil {
			return nil, missing(a, "ref-name, type and snapshot-id")
		}
		ref := SnapshotRef{SnapshotID: *j.SnapshotID, Type: RefType(*j.Type), MaxRefAgeMs: j.MaxRefAgeMs,
			MaxSnapshotAgeMs: j.MaxSnapshotAgeMs, MinSnapshotsToKeep: j.MinSnapshotsToKeep}
		return SetSnapshotRefUpdate{Name: *j.RefName, Ref: ref}, nil
	case "remove-snapshots":
		if j.SnapshotIDs == nil {
			return nil, missing(a, "snapshot-ids")
		}
		return RemoveSnapshotsUpdate{SnapshotIDs: *j.SnapshotIDs}, nil
	case "remove-snapshot-ref":
		if j.RefName == nil {
			return nil, missing(a, "ref-name")
		}
		return RemoveSnapshotRefUpdate{Name: *j.RefName}, nil
	case "set-location":
		if j.Location == nil {
			return nil, missing(a, "location")
		}
		return SetLocationUpdate{Location: *j.Location}, nil
	case "set-properties":
		if j.Updates == nil {
			return nil, missing(a, "updates")
		}
		return SetPropertiesUpdate{Updates: *j.Updates}, nil
	case "remove-properties":
		if j.Removals == nil {
			return nil, missing(a, "removals")
		}
		return RemovePropertiesUpdate{Removals: *j.Removals}, nil
	case "set-statistics":
		if j.Statistics == nil {
			return nil, missing(a, "statistics")
		}
		return SetStatisticsUpdate{Statistics: *j.Statistics}, nil
	case "remove-statistics":
		if j.SnapshotID == nil {
			return nil, missing(a, "snapshot-id")
		}
		return RemoveStatisticsUpdate{SnapshotID: *j.SnapshotID}, nil
	case "set-partition-statistics":
		if j.PartitionStatistics == nil {
			return nil, missing(a, "partition-statistics")
		}
		return SetPartitionStatisticsUpdate{Statistics: *j.PartitionStatistics}, nil
	case "remove-partition-statistics":
		if j.SnapshotID == nil {
			return nil, missing(a, "snapshot-id")
		}
		return RemovePartitionStatisticsUpdate{SnapshotID: *j.SnapshotID}, nil
	case "remove-schemas":
		if j.SchemaIDs == nil {
			return nil, missing(a, "schema-ids")
		}
		return RemoveSchemasUpdate{SchemaIDs: *j.SchemaIDs}, nil
	case "remove-partition-specs":
		if j.SpecIDs == nil {
			return nil, missing(a, "spec-ids")
		}
		return RemovePartitionSpecsUpdate{SpecIDs: *j.SpecIDs}, nil
	}
	return nil, fmt.Errorf("%w: action %q", ErrUnknownUpdate, a)
}

// ParseUpdates reads a JSON array of TableUpdate objects.
func ParseUpdates(data []byte) ([]Update, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "table updates: %v", err)
	}
	out := make([]Update, 0, len(raws))
	for _, r := range raws {
		u, err := ParseUpdate(r)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// parseSpecUpdate reads an add-spec "spec"; spec-id is read-only in the
// REST schema, so a missing one is accepted (the builder assigns ids).
func parseSpecUpdate(raw json.RawMessage) (*PartitionSpec, error) {
	if !isJSONValue(raw) {
		return nil, missing("add-spec", "spec")
	}
	var j struct {
		SpecID *int            `json:"spec-id"`
		Fields json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, metaErrorf(ErrInvalidPartitionSpec, "add-spec: %v", err)
	}
	fields, err := ParsePartitionFields(j.Fields)
	if err != nil {
		return nil, err
	}
	spec := &PartitionSpec{Fields: fields}
	if j.SpecID != nil {
		spec.ID = *j.SpecID
	}
	return spec, nil
}

// parseSortOrderUpdate reads an add-sort-order "sort-order"; order-id may
// be absent (read-only in the REST schema).
func parseSortOrderUpdate(raw json.RawMessage) (*SortOrder, error) {
	if !isJSONValue(raw) {
		return nil, missing("add-sort-order", "sort-order")
	}
	var probe struct {
		OrderID *int `json:"order-id"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, metaErrorf(ErrInvalidMetadata, "add-sort-order: %v", err)
	}
	if probe.OrderID == nil {
		raw = append([]byte(`{"order-id":1,`), bytes.TrimPrefix(bytes.TrimSpace(raw), []byte("{"))...)
	}
	var o SortOrder
	if err := o.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	return &o, nil
}
