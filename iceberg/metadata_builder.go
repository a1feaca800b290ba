package iceberg

import (
	"crypto/rand"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// MetadataBuilder applies validated changes to a base TableMetadata (or
// to nothing, for a new table) and records each effective change as an
// Update. The base is never modified.
type MetadataBuilder struct {
	base    *TableMetadata
	m       TableMetadata // working copy; slices and maps are private clones
	updates []Update

	// lastAdded*ID is what LastAdded resolves to: the schema, spec or
	// order the last Add* call returned, even when that was an existing
	// equal one (evolving back to an earlier shape, as iceberg-go does).
	// The *New flags say whether it was really added in this change, so
	// that only then is LastAdded recorded in the update.
	lastAddedSchemaID  *int
	lastAddedSpecID    *int
	lastAddedOrderID   *int
	lastAddedSchemaNew bool
	lastAddedSpecNew   bool
	lastAddedOrderNew  bool
	addedSnapshots     map[int64]bool
	// snapshotUpdatedMs is the timestamp of an added snapshot that became
	// the head of a ref; it becomes last-updated-ms, as in Java.
	snapshotUpdatedMs *int64

	previousFile string
	nowMs        func() int64
}

// NewMetadataBuilder starts a change of base; base nil starts a new table
// (format version defaults to 2 unless UpgradeFormatVersion is called).
func NewMetadataBuilder(base *TableMetadata) *MetadataBuilder {
	b := &MetadataBuilder{base: base, addedSnapshots: map[int64]bool{}, nowMs: func() int64 { return time.Now().UnixMilli() }}
	if base == nil {
		b.m = TableMetadata{currentSnapshotID: NoSnapshotID, lastPartitionID: PartitionFieldIDStart - 1,
			properties: map[string]string{}, refs: map[string]SnapshotRef{}, snapJSON: newSnapshotJSONCache()}
		return b
	}
	b.m = *base // snapshots and snapshotLog stay shared (see sharedRun)
	b.m.schemas = slices.Clone(base.schemas)
	b.m.specs = slices.Clone(base.specs)
	b.m.sortOrders = slices.Clone(base.sortOrders)
	b.m.metadataLog = slices.Clone(base.metadataLog)
	b.m.statistics = slices.Clone(base.statistics)
	b.m.partitionStats = slices.Clone(base.partitionStats)
	b.m.properties = maps.Clone(base.properties)
	if b.m.properties == nil {
		b.m.properties = map[string]string{}
	}
	b.m.refs = maps.Clone(base.refs)
	if b.m.refs == nil {
		b.m.refs = map[string]SnapshotRef{}
	}
	b.m.unknown = maps.Clone(base.unknown)
	return b
}

// Updates returns the changes recorded so far.
func (b *MetadataBuilder) Updates() []Update { return slices.Clone(b.updates) }

// SetPreviousMetadataFile records base's metadata file location; Build
// appends it (with base's last-updated-ms) to metadata-log.
func (b *MetadataBuilder) SetPreviousMetadataFile(location string) { b.previousFile = location }

func (b *MetadataBuilder) record(u Update) { b.updates = append(b.updates, u) }

// AssignUUID sets the table UUID; an existing table's UUID never changes.
func (b *MetadataBuilder) AssignUUID(uuid string) error {
	if !isUUIDText(uuid) {
		return metaErrorf(ErrInvalidMetadata, "%q is not a UUID", uuid)
	}
	if b.m.uuid == uuid {
		return nil
	}
	if b.m.uuid != "" {
		return metaErrorf(ErrInvalidMetadata, "cannot reassign table UUID %s to %s", b.m.uuid, uuid)
	}
	b.m.uuid = uuid
	b.record(AssignUUIDUpdate{UUID: uuid})
	return nil
}

// UpgradeFormatVersion raises the format version (never lowers it).
func (b *MetadataBuilder) UpgradeFormatVersion(v int) error {
	if v < 1 || v > MaxSupportedFormatVersion {
		return fmt.Errorf("%w: %w: format version %d (supported: 1..%d)", ErrInvalidMetadata, ErrUnsupported, v, MaxSupportedFormatVersion)
	}
	if v == b.m.formatVersion {
		return nil
	}
	if v < b.m.formatVersion {
		return metaErrorf(ErrInvalidMetadata, "cannot downgrade format version %d to %d", b.m.formatVersion, v)
	}
	b.m.formatVersion = v
	b.record(UpgradeFormatVersionUpdate{FormatVersion: v})
	return nil
}

// AddSchema adds a schema (its id is ignored) and returns the id it got:
// an equal existing schema's id, or one above the highest. last-column-id
// rises to cover the schema's fields.
func (b *MetadataBuilder) AddSchema(s *Schema) (int, error) {
	if s == nil {
		return 0, metaErrorf(ErrInvalidSchema, "nil schema")
	}
	for _, old := range b.m.schemas {
		if old.Equals(s) {
			id := old.ID
			b.lastAddedSchemaID, b.lastAddedSchemaNew = &id, b.addedInThisChange(id, b.lastAddedSchemaID, b.lastAddedSchemaNew)
			return id, nil
		}
	}
	id := 0
	for _, old := range b.m.schemas {
		id = max(id, old.ID+1)
	}
	ns, err := NewSchema(id, s.Fields(), s.IdentifierFieldIDs...)
	if err != nil {
		return 0, err
	}
	b.m.schemas = append(b.m.schemas, ns)
	b.m.lastColumnID = max(b.m.lastColumnID, ns.HighestFieldID())
	b.lastAddedSchemaID, b.lastAddedSchemaNew = &id, true
	b.record(AddSchemaUpdate{Schema: ns, LastColumnID: b.m.lastColumnID})
	return id, nil
}

// addedInThisChange reports whether id, found equal to an existing one,
// was itself added earlier in this change.
func (b *MetadataBuilder) addedInThisChange(id int, last *int, lastNew bool) bool {
	return last != nil && *last == id && lastNew
}

// SetCurrentSchema makes a schema current; LastAdded means the schema
// added last in this change.
func (b *MetadataBuilder) SetCurrentSchema(id int) error {
	recordID := id
	if id == LastAdded {
		if b.lastAddedSchemaID == nil {
			return metaErrorf(ErrInvalidMetadata, "set current schema to last added: no schema was added")
		}
		id = *b.lastAddedSchemaID
	} else if b.lastAddedSchemaID != nil && *b.lastAddedSchemaID == id && b.lastAddedSchemaNew {
		recordID = LastAdded
	}
	if recordID == LastAdded && !b.lastAddedSchemaNew {
		recordID = id
	}
	if _, ok := b.m.SchemaByID(id); !ok {
		return metaErrorf(ErrInvalidMetadata, "no schema with id %d", id)
	}
	if b.m.currentSchemaID == id && len(b.m.schemas) > 0 && b.base != nil {
		return nil
	}
	b.m.currentSchemaID = id
	b.record(SetCurrentSchemaUpdate{SchemaID: recordID})
	return nil
}

func specsCompatible(a, b *PartitionSpec) bool {
	if len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		fa, fb := a.Fields[i], b.Fields[i]
		if fa.SourceID != fb.SourceID || fa.Name != fb.Name || fa.Transform == nil || fb.Transform == nil ||
			fa.Transform.String() != fb.Transform.String() {
			return false
		}
	}
	return true
}

// AddPartitionSpec adds a spec (its id is ignored) and returns the id it
// got. Fields must name columns of the current schema with a transform
// that applies to them; field ids are kept and raise last-partition-id.
func (b *MetadataBuilder) AddPartitionSpec(spec *PartitionSpec) (int, error) {
	if spec == nil {
		return 0, metaErrorf(ErrInvalidPartitionSpec, "nil spec")
	}
	schema := b.m.CurrentSchema()
	ids, names := map[int]bool{}, map[string]bool{}
	for _, f := range spec.Fields {
		if f.Transform == nil {
			return 0, metaErrorf(ErrInvalidPartitionSpec, "field %q has no transform", f.Name)
		}
		if f.Name == "" || names[f.Name] || ids[f.FieldID] {
			return 0, metaErrorf(ErrInvalidPartitionSpec, "field %d %q is empty or repeated", f.FieldID, f.Name)
		}
		names[f.Name], ids[f.FieldID] = true, true
		if f.FieldID < PartitionFieldIDStart {
			return 0, metaErrorf(ErrInvalidPartitionSpec, "field %q has id %d below %d", f.Name, f.FieldID, PartitionFieldIDStart)
		}
		if schema == nil {
			return 0, metaErrorf(ErrInvalidPartitionSpec, "no current schema to bind spec to")
		}
		src, ok := schema.FindFieldByID(f.SourceID)
		if !ok {
			return 0, fmt.Errorf("%w: partition field %q: source id %d: %w", ErrInvalidPartitionSpec, f.Name, f.SourceID, ErrNoSuchField)
		}
		if !f.Transform.CanTransform(src.Type) {
			return 0, metaErrorf(ErrInvalidPartitionSpec, "transform %s cannot apply to %s column %q", f.Transform, src.Type, src.Name)
		}
	}
	for _, old := range b.m.specs {
		if specsCompatible(old, spec) {
			id := old.ID
			b.lastAddedSpecID, b.lastAddedSpecNew = &id, b.addedInThisChange(id, b.lastAddedSpecID, b.lastAddedSpecNew)
			return id, nil
		}
	}
	id := 0
	for _, old := range b.m.specs {
		id = max(id, old.ID+1)
	}
	ns := &PartitionSpec{ID: id, Fields: slices.Clone(spec.Fields)}
	for _, f := range ns.Fields {
		b.m.lastPartitionID = max(b.m.lastPartitionID, f.FieldID)
	}
	b.m.specs = append(b.m.specs, ns)
	b.lastAddedSpecID, b.lastAddedSpecNew = &id, true
	b.record(AddPartitionSpecUpdate{Spec: ns})
	return id, nil
}

// SetDefaultSpec makes a spec the default; LastAdded means the spec added
// last in this change.
func (b *MetadataBuilder) SetDefaultSpec(id int) error {
	recordID := id
	if id == LastAdded {
		if b.lastAddedSpecID == nil {
			return metaErrorf(ErrInvalidMetadata, "set default spec to last added: no spec was added")
		}
		id = *b.lastAddedSpecID
	} else if b.lastAddedSpecID != nil && *b.lastAddedSpecID == id && b.lastAddedSpecNew {
		recordID = LastAdded
	}
	if recordID == LastAdded && !b.lastAddedSpecNew {
		recordID = id
	}
	if _, ok := b.m.SpecByID(id); !ok {
		return metaErrorf(ErrInvalidMetadata, "no partition spec with id %d", id)
	}
	if b.m.defaultSpecID == id && b.base != nil {
		return nil
	}
	b.m.defaultSpecID = id
	b.record(SetDefaultSpecUpdate{SpecID: recordID})
	return nil
}

func sortOrdersEqual(a, b *SortOrder) bool {
	if len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		fa, fb := a.Fields[i], b.Fields[i]
		if fa.SourceID != fb.SourceID || fa.Direction != fb.Direction || fa.NullOrder != fb.NullOrder ||
			fa.Transform == nil || fb.Transform == nil || fa.Transform.String() != fb.Transform.String() {
			return false
		}
	}
	return true
}

// AddSortOrder adds a sort order (its id is ignored; an unsorted order is
// always id 0) and returns the id it got.
func (b *MetadataBuilder) AddSortOrder(order *SortOrder) (int, error) {
	if order == nil {
		return 0, metaErrorf(ErrInvalidMetadata, "nil sort order")
	}
	schema := b.m.CurrentSchema()
	for _, f := range order.Fields {
		if f.Transform == nil {
			return 0, metaErrorf(ErrInvalidMetadata, "sort field on source %d has no transform", f.SourceID)
		}
		if f.Direction != SortAsc && f.Direction != SortDesc {
			return 0, metaErrorf(ErrInvalidMetadata, "sort field on source %d has direction %q", f.SourceID, f.Direction)
		}
		if f.NullOrder != NullsFirst && f.NullOrder != NullsLast {
			return 0, metaErrorf(ErrInvalidMetadata, "sort field on source %d has null order %q", f.SourceID, f.NullOrder)
		}
		if schema == nil {
			return 0, metaErrorf(ErrInvalidMetadata, "no current schema to bind sort order to")
		}
		src, ok := schema.FindFieldByID(f.SourceID)
		if !ok {
			return 0, fmt.Errorf("%w: sort order source id %d: %w", ErrInvalidMetadata, f.SourceID, ErrNoSuchField)
		}
		if !f.Transform.CanTransform(src.Type) {
			return 0, metaErrorf(ErrInvalidMetadata, "transform %s cannot apply to %s column %q", f.Transform, src.Type, src.Name)
		}
	}
	for _, old := range b.m.sortOrders {
		if sortOrdersEqual(old, order) {
			id := old.OrderID
			b.lastAddedOrderID, b.lastAddedOrderNew = &id, b.addedInThisChange(id, b.lastAddedOrderID, b.lastAddedOrderNew)
			return id, nil
		}
	}
	id := 0
	if len(order.Fields) > 0 {
		id = 1
		for _, old := range b.m.sortOrders {
			id = max(id, old.OrderID+1)
		}
	}
	no := &SortOrder{OrderID: id, Fields: slices.Clone(order.Fields)}
	b.m.sortOrders = append(b.m.sortOrders, no)
	b.lastAddedOrderID, b.lastAddedOrderNew = &id, true
	b.record(AddSortOrderUpdate{SortOrder: no})
	return id, nil
}

// SetDefaultSortOrder makes a sort order the default; LastAdded means the
// order added last in this change.
func (b *MetadataBuilder) SetDefaultSortOrder(id int) error {
	recordID := id
	if id == LastAdded {
		if b.lastAddedOrderID == nil {
			return metaErrorf(ErrInvalidMetadata, "set default sort order to last added: no order was added")
		}
		id = *b.lastAddedOrderID
	} else if b.lastAddedOrderID != nil && *b.lastAddedOrderID == id && b.lastAddedOrderNew {
		recordID = LastAdded
	}
	if recordID == LastAdded && !b.lastAddedOrderNew {
		recordID = id
	}
	if _, ok := b.m.SortOrderByID(id); !ok {
		return metaErrorf(ErrInvalidMetadata, "no sort order with id %d", id)
	}
	if b.m.defaultSortOrderID == id && b.base != nil {
		return nil
	}
	b.m.defaultSortOrderID = id
	b.record(SetDefaultSortOrderUpdate{SortOrderID: recordID})
	return nil
}

// AddSnapshot adds a snapshot without making it the head of any ref (see
// SetSnapshotRef). It advances last-sequence-number and, in v3,
// next-row-id by the snapshot's added-rows.
func (b *MetadataBuilder) AddSnapshot(s *Snapshot) error {
	if s == nil {
		return metaErrorf(ErrInvalidMetadata, "nil snapshot")
	}
	if _, dup := b.snapshot(s.SnapshotID); dup {
		return metaErrorf(ErrInvalidMetadata, "snapshot id %d already exists", s.SnapshotID)
	}
	if b.m.formatVersion >= 2 && s.ManifestList == "" {
		return metaErrorf(ErrInvalidMetadata, "snapshot %d has no manifest list", s.SnapshotID)
	}
	if s.Summary[SummaryOperation] == "" {
		return metaErrorf(ErrInvalidMetadata, "snapshot %d has no operation in its summary", s.SnapshotID)
	}
	if b.m.formatVersion >= 2 && s.SequenceNumber <= b.m.lastSequenceNumber && s.ParentSnapshotID != nil {
		return metaErrorf(ErrInvalidMetadata, "snapshot %d has sequence number %d, not above last sequence number %d",
			s.SnapshotID, s.SequenceNumber, b.m.lastSequenceNumber)
	}
	if b.m.formatVersion >= 3 {
		if s.FirstRowID == nil || s.AddedRows == nil {
			return metaErrorf(ErrInvalidMetadata, "v3 snapshot %d needs first-row-id and added-rows", s.SnapshotID)
		}
		if *s.FirstRowID < b.m.nextRowID || *s.AddedRows < 0 {
			return metaErrorf(ErrInvalidMetadata, "snapshot %d first-row-id %d is behind next-row-id %d (or added-rows is negative)",
				s.SnapshotID, *s.FirstRowID, b.m.nextRowID)
		}
		b.m.nextRowID = *s.FirstRowID + *s.AddedRows
	}
	b.m.snapshots, b.m.snapRun = appendToRun(b.m.snapshots, b.m.snapRun, s)
	b.m.lastSequenceNumber = max(b.m.lastSequenceNumber, s.SequenceNumber)
	b.addedSnapshots[s.SnapshotID] = true
	ts := s.TimestampMs
	b.snapshotUpdatedMs = &ts
	b.record(AddSnapshotUpdate{Snapshot: s})
	return nil
}

// SetSnapshotRef creates or moves a branch or tag. Moving main changes
// current-snapshot-id and appends to the snapshot log.
func (b *MetadataBuilder) SetSnapshotRef(name string, ref SnapshotRef) error {
	if name == "" {
		return metaErrorf(ErrInvalidMetadata, "empty ref name")
	}
	if err := ref.validate(name); err != nil {
		return err
	}
	snap, ok := b.snapshot(ref.SnapshotID)
	if !ok {
		return fmt.Errorf("%w: ref %q: %w: %d", ErrInvalidMetadata, name, ErrNoSuchSnapshot, ref.SnapshotID)
	}
	if old, ok := b.m.refs[name]; ok && old.equal(ref) {
		return nil
	}
	b.m.refs[name] = ref
	if name == MainBranch {
		b.m.currentSnapshotID = ref.SnapshotID
		ts := b.nowMs()
		if b.addedSnapshots[snap.SnapshotID] {
			ts = snap.TimestampMs
		}
		b.m.snapshotLog, b.m.logRun = appendShared(b.m.snapshotLog, b.m.logRun, SnapshotLogEntry{TimestampMs: ts, SnapshotID: ref.SnapshotID})
	}
	b.record(SetSnapshotRefUpdate{Name: name, Ref: ref})
	return nil
}

// RemoveSnapshots drops snapshots (unknown ids are ignored), the refs that
// point to them and their statistics.
func (b *MetadataBuilder) RemoveSnapshots(ids ...int64) error {
	drop := map[int64]bool{}
	for _, id := range ids {
		if _, ok := b.snapshot(id); ok {
			drop[id] = true
		}
	}
	if len(drop) == 0 {
		return nil
	}
	// A new array: the old one is shared with other versions.
	b.m.snapshots = slices.DeleteFunc(slices.Clone(b.m.snapshots), func(s *Snapshot) bool { return drop[s.SnapshotID] })
	b.m.snapRun, b.m.logPruned = newSnapshotRun(b.m.snapshots), false
	b.m.statistics = slices.DeleteFunc(b.m.statistics, func(s StatisticsFile) bool { return drop[s.SnapshotID] })
	b.m.partitionStats = slices.DeleteFunc(b.m.partitionStats, func(s PartitionStatisticsFile) bool { return drop[s.SnapshotID] })
	for name, r := range b.m.refs {
		if drop[r.SnapshotID] {
			delete(b.m.refs, name)
			if name == MainBranch {
				b.m.currentSnapshotID = NoSnapshotID
			}
		}
	}
	kept := make([]int64, 0, len(drop))
	for _, id := range ids {
		if drop[id] {
			kept = append(kept, id)
		}
	}
	b.record(RemoveSnapshotsUpdate{SnapshotIDs: kept})
	return nil
}

// RemoveSnapshotRef removes a branch or tag; removing main leaves the
// table with no current snapshot.
func (b *MetadataBuilder) RemoveSnapshotRef(name string) error {
	if _, ok := b.m.refs[name]; !ok {
		return nil
	}
	delete(b.m.refs, name)
	if name == MainBranch {
		b.m.currentSnapshotID = NoSnapshotID
	}
	b.record(RemoveSnapshotRefUpdate{Name: name})
	return nil
}

// SetLocation sets the table's base location.
func (b *MetadataBuilder) SetLocation(loc string) error {
	if loc == "" {
		return metaErrorf(ErrInvalidMetadata, "empty table location")
	}
	if loc == b.m.location {
		return nil
	}
	b.m.location = loc
	b.record(SetLocationUpdate{Location: loc})
	return nil
}

// SetProperties sets table properties. "format-version" is not stored: it
// upgrades the format version. Other reserved keys are rejected.
func (b *MetadataBuilder) SetProperties(props map[string]string) error {
	set := map[string]string{}
	for k, v := range props {
		if k == PropFormatVersion {
			n, err := strconv.Atoi(v)
			if err != nil {
				return metaErrorf(ErrInvalidMetadata, "format-version %q is not an integer", v)
			}
			if err := b.UpgradeFormatVersion(n); err != nil {
				return err
			}
			continue
		}
		if IsReservedProperty(k) {
			return metaErrorf(ErrInvalidMetadata, "table property %q is reserved", k)
		}
		if err := ValidateProperty(k, v); err != nil {
			return err
		}
		if old, ok := b.m.properties[k]; !ok || old != v {
			set[k] = v
		}
	}
	if len(set) == 0 {
		return nil
	}
	maps.Copy(b.m.properties, set)
	b.record(SetPropertiesUpdate{Updates: set})
	return nil
}

// RemoveProperties removes table properties (absent keys are ignored).
func (b *MetadataBuilder) RemoveProperties(keys ...string) error {
	var removed []string
	for _, k := range keys {
		if _, ok := b.m.properties[k]; ok {
			delete(b.m.properties, k)
			removed = append(removed, k)
		}
	}
	if len(removed) > 0 {
		b.record(RemovePropertiesUpdate{Removals: removed})
	}
	return nil
}

// SetStatistics adds or replaces the statistics file of a snapshot.
func (b *MetadataBuilder) SetStatistics(st StatisticsFile) error {
	if _, ok := b.snapshot(st.SnapshotID); !ok {
		return fmt.Errorf("%w: statistics for %w %d", ErrInvalidMetadata, ErrNoSuchSnapshot, st.SnapshotID)
	}
	b.m.statistics = slices.DeleteFunc(b.m.statistics, func(s StatisticsFile) bool { return s.SnapshotID == st.SnapshotID })
	b.m.statistics = append(b.m.statistics, st)
	b.record(SetStatisticsUpdate{Statistics: st})
	return nil
}

// RemoveStatistics removes a snapshot's statistics file, if any.
func (b *MetadataBuilder) RemoveStatistics(snapshotID int64) error {
	n := len(b.m.statistics)
	b.m.statistics = slices.DeleteFunc(b.m.statistics, func(s StatisticsFile) bool { return s.SnapshotID == snapshotID })
	if len(b.m.statistics) != n {
		b.record(RemoveStatisticsUpdate{SnapshotID: snapshotID})
	}
	return nil
}

// SetPartitionStatistics adds or replaces a snapshot's partition stats.
func (b *MetadataBuilder) SetPartitionStatistics(st PartitionStatisticsFile) error {
	if _, ok := b.snapshot(st.SnapshotID); !ok {
		return fmt.Errorf("%w: partition statistics for %w %d", ErrInvalidMetadata, ErrNoSuchSnapshot, st.SnapshotID)
	}
	b.m.partitionStats = slices.DeleteFunc(b.m.partitionStats, func(s PartitionStatisticsFile) bool { return s.SnapshotID == st.SnapshotID })
	b.m.partitionStats = append(b.m.partitionStats, st)
	b.record(SetPartitionStatisticsUpdate{Statistics: st})
	return nil
}

// RemovePartitionStatistics removes a snapshot's partition stats, if any.
func (b *MetadataBuilder) RemovePartitionStatistics(snapshotID int64) error {
	n := len(b.m.partitionStats)
	b.m.partitionStats = slices.DeleteFunc(b.m.partitionStats, func(s PartitionStatisticsFile) bool { return s.SnapshotID == snapshotID })
	if len(b.m.partitionStats) != n {
		b.record(RemovePartitionStatisticsUpdate{SnapshotID: snapshotID})
	}
	return nil
}

// RemoveSchemas drops unused schemas (unknown ids are ignored); the
// current schema cannot be removed.
func (b *MetadataBuilder) RemoveSchemas(ids ...int) error {
	drop := map[int]bool{}
	for _, id := range ids {
		if id == b.m.currentSchemaID {
			return metaErrorf(ErrInvalidMetadata, "cannot remove the current schema %d", id)
		}
		if _, ok := b.m.SchemaByID(id); ok {
			drop[id] = true
		}
	}
	if len(drop) == 0 {
		return nil
	}
	b.m.schemas = slices.DeleteFunc(b.m.schemas, func(s *Schema) bool { return drop[s.ID] })
	b.record(RemoveSchemasUpdate{SchemaIDs: slices.Sorted(maps.Keys(drop))})
	return nil
}

// RemovePartitionSpecs drops unused specs (unknown ids are ignored); the
// default spec cannot be removed.
func (b *MetadataBuilder) RemovePartitionSpecs(ids ...int) error {
	drop := map[int]bool{}
	for _, id := range ids {
		if id == b.m.defaultSpecID {
			return metaErrorf(ErrInvalidMetadata, "cannot remove the default partition spec %d", id)
		}
		if _, ok := b.m.SpecByID(id); ok {
			drop[id] = true
		}
	}
	if len(drop) == 0 {
		return nil
	}
	b.m.specs = slices.DeleteFunc(b.m.specs, func(s *PartitionSpec) bool { return drop[s.ID] })
	b.record(RemovePartitionSpecsUpdate{SpecIDs: slices.Sorted(maps.Keys(drop))})
	return nil
}

// snapshot finds a snapshot of the working copy by id.
func (b *MetadataBuilder) snapshot(id int64) (*Snapshot, bool) {
	return b.m.snapRun.find(b.m.snapshots, id)
}

// Build validates and returns the new metadata. With no recorded change it
// returns the base itself.
func (b *MetadataBuilder) Build() (*TableMetadata, error) {
	if b.base != nil && len(b.updates) == 0 {
		return b.base, nil
	}
	m := b.m
	m.schemas = slices.Clone(m.schemas)
	m.specs = slices.Clone(m.specs)
	m.sortOrders = slices.Clone(m.sortOrders)
	m.statistics = slices.Clone(m.statistics)
	m.partitionStats = slices.Clone(m.partitionStats)
	m.properties = maps.Clone(m.properties)
	m.refs = maps.Clone(m.refs)
	if m.formatVersion == 0 {
		m.formatVersion = DefaultFormatVersion
	}
	if m.uuid == "" {
		m.uuid = NewUUIDString()
	}
	if b.snapshotUpdatedMs != nil {
		m.lastUpdatedMs = *b.snapshotUpdatedMs
	} else {
		m.lastUpdatedMs = b.nowMs()
	}
	if m.snapRun == nil {
		m.snapRun = newSnapshotRun(m.snapshots)
	}
	if !m.logPruned {
		m.snapshotLog = prunedSnapshotLog(&m)
		m.logRun = newSharedRun(m.snapshotLog)
	}
	m.logPruned = true
	m.metadataLog = slices.Clone(m.metadataLog)
	if b.base != nil && b.previousFile != "" {
		m.metadataLog = append(m.metadataLog, MetadataLogEntry{TimestampMs: b.base.lastUpdatedMs, MetadataFile: b.previousFile})
	}
	keep := max(1, int(m.PropertyInt(PropMetadataPreviousVersionsMax, DefaultMetadataPreviousVersionsMax)))
	if len(m.metadataLog) > keep {
		m.metadataLog = slices.Clone(m.metadataLog[len(m.metadataLog)-keep:])
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	if err := checkSchemaVersions(&m); err != nil {
		return nil, err
	}
	return &m, nil
}

// prunedSnapshotLog drops log entries of removed snapshots; history before
// a removed entry is dropped too, as Java does, so the log stays a
// contiguous record of main.
func prunedSnapshotLog(m *TableMetadata) []SnapshotLogEntry {
	var out []SnapshotLogEntry
	for _, e := range m.snapshotLog {
		if _, ok := m.SnapshotByID(e.SnapshotID); ok {
			out = append(out, e)
		} else {
			out = out[:0]
		}
	}
	return out
}

// NewUUIDString returns a random (version 4) UUID in text form.
func NewUUIDString() string {
	var u [16]byte
	_, _ = rand.Read(u[:]) // crypto/rand.Read never fails (Go 1.24+)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// NewTableBuilder records the updates that create a table, as Java's
// newTableMetadata does: fresh field ids 1..n (breadth-first per struct),
// schema id 0, spec id 0 with partition field ids from 1000, sort order 1
// (0 when unsorted), format version from props["format-version"] (default
// 2, not stored) and write.parquet.compression-codec=zstd unless set.
// spec and order may be nil; they refer to the given schema's field ids.
func NewTableBuilder(schema *Schema, spec *PartitionSpec, order *SortOrder, location string, props map[string]string) (*MetadataBuilder, error) {
	if schema == nil {
		return nil, metaErrorf(ErrInvalidSchema, "nil schema")
	}
	fresh, idMap, err := freshSchema(schema)
	if err != nil {
		return nil, err
	}
	b := NewMetadataBuilder(nil)
	if err := b.AssignUUID(NewUUIDString()); err != nil {
		return nil, err
	}
	version := DefaultFormatVersion
	if v, ok := props[PropFormatVersion]; ok {
		if version, err = strconv.Atoi(v); err != nil {
			return nil, metaErrorf(ErrInvalidMetadata, "format-version %q is not an integer", v)
		}
	}
	if err := b.UpgradeFormatVersion(version); err != nil {
		return nil, err
	}
	if _, err := b.AddSchema(fresh); err != nil {
		return nil, err
	}
	if err := b.SetCurrentSchema(LastAdded); err != nil {
		return nil, err
	}
	newSpec := &PartitionSpec{}
	if spec != nil {
		for i, f := range spec.Fields {
			nid, ok := idMap[f.SourceID]
			if !ok {
				return nil, fmt.Errorf("%w: partition field %q: source id %d: %w", ErrInvalidPartitionSpec, f.Name, f.SourceID, ErrNoSuchField)
			}
			newSpec.Fields = append(newSpec.Fields, PartitionField{SourceID: nid, FieldID: PartitionFieldIDStart + i, Name: f.Name, Transform: f.Transform})
		}
	}
	if _, err := b.AddPartitionSpec(newSpec); err != nil {
		return nil, err
	}
	if err := b.SetDefaultSpec(LastAdded); err != nil {
		return nil, err
	}
	newOrder := &SortOrder{}
	if order != nil {
		for _, f := range order.Fields {
			nid, ok := idMap[f.SourceID]
			if !ok {
				return nil, fmt.Errorf("%w: sort field source id %d: %w", ErrInvalidMetadata, f.SourceID, ErrNoSuchField)
			}
			f.SourceID = nid
			newOrder.Fields = append(newOrder.Fields, f)
		}
	}
	if _, err := b.AddSortOrder(newOrder); err != nil {
		return nil, err
	}
	if err := b.SetDefaultSortOrder(LastAdded); err != nil {
		return nil, err
	}
	if err := b.SetLocation(location); err != nil {
		return nil, err
	}
	stored := maps.Clone(props)
	delete(stored, PropFormatVersion)
	if stored == nil {
		stored = map[string]string{}
	}
	if _, ok := stored[PropParquetCompression]; !ok {
		stored[PropParquetCompression] = DefaultParquetCompression
	}
	if err := b.SetProperties(stored); err != nil {
		return nil, err
	}
	return b, nil
}

// NewTableMetadata builds the metadata of a new table (see NewTableBuilder).
func NewTableMetadata(schema *Schema, spec *PartitionSpec, order *SortOrder, location string, props map[string]string) (*TableMetadata, error) {
	b, err := NewTableBuilder(schema, spec, order, location, props)
	if err != nil {
		return nil, err
	}
	return b.Build()
}

// freshSchema reassigns field ids 1..n in Java's order: all fields of a
// struct first, then their children; list element, map key then value.
// It returns the old->new id map.
func freshSchema(s *Schema) (*Schema, map[int]int, error) {
	next := 0
	idMap := map[int]int{}
	newID := func(old int) int {
		next++
		idMap[old] = next
		return next
	}
	var freshType func(t Type) Type
	freshFields := func(fields []NestedField) []NestedField {
		out := make([]NestedField, len(fields))
		for i, f := range fields {
			out[i] = f
			out[i].ID = newID(f.ID)
		}
		for i := range out {
			out[i].Type = freshType(out[i].Type)
		}
		return out
	}
	freshType = func(t Type) Type {
		switch tt := t.(type) {
		case *StructType:
			return &StructType{FieldList: freshFields(tt.FieldList)}
		case *ListType:
			id := newID(tt.ElementID)
			return &ListType{ElementID: id, Element: freshType(tt.Element), ElementRequired: tt.ElementRequired}
		case *MapType:
			kid := newID(tt.KeyID)
			vid := newID(tt.ValueID)
			return &MapType{KeyID: kid, Key: freshType(tt.Key), ValueID: vid, Value: freshType(tt.Value), ValueRequired: tt.ValueRequired}
		}
		return t
	}
	fields := freshFields(s.Fields())
	ident := make([]int, 0, len(s.IdentifierFieldIDs))
	for _, id := range s.IdentifierFieldIDs {
		ident = append(ident, idMap[id])
	}
	ns, err := NewSchema(0, fields, ident...)
	if err != nil {
		return nil, nil, err
	}
	return ns, idMap, nil
}
