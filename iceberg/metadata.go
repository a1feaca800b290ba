package iceberg

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// TableMetadata is the parsed content of a table's metadata.json. It is an
// immutable value: accessors return shared slices, maps and pointers that
// callers must not modify. Change it with a MetadataBuilder.
type TableMetadata struct {
	formatVersion      int
	uuid               string
	location           string
	lastSequenceNumber int64
	lastUpdatedMs      int64
	lastColumnID       int
	schemas            []*Schema
	currentSchemaID    int
	specs              []*PartitionSpec
	defaultSpecID      int
	lastPartitionID    int
	properties         map[string]string
	currentSnapshotID  int64 // -1 when the table has no current snapshot
	snapshots          []*Snapshot
	snapshotLog        []SnapshotLogEntry
	metadataLog        []MetadataLogEntry
	sortOrders         []*SortOrder
	defaultSortOrderID int
	refs               map[string]SnapshotRef
	statistics         []StatisticsFile
	partitionStats     []PartitionStatisticsFile
	nextRowID          int64 // v3

	// unknown holds top-level keys this version does not model (e.g. v3
	// encryption-keys) so they survive a read/modify/write cycle.
	unknown map[string][]byte

	// snapJSON caches encoded snapshots; shared with the versions a
	// builder derives from this one (see snapshotJSONCache).
	snapJSON *snapshotJSONCache
	// snapRun and logRun own the arrays snapshots and snapshotLog are
	// prefixes of, shared with the versions built from this one (see
	// sharedRun); nil means unknown, so the next append copies.
	snapRun *snapshotRun
	logRun  *sharedRun[SnapshotLogEntry]
	// logPruned says snapshot-log refers only to snapshots in snapshots,
	// as Build leaves it, so the next Build need not check it again.
	logPruned bool
}

// smallSnapshots is how many snapshots a lookup scans rather than index.
const smallSnapshots = 16

// scanSnapshots finds a snapshot by id, newest first: the current
// snapshot and its parent are usually last.
func scanSnapshots(snaps []*Snapshot, id int64) (*Snapshot, bool) {
	for i := len(snaps) - 1; i >= 0; i-- {
		if snaps[i].SnapshotID == id {
			return snaps[i], true
		}
	}
	return nil, false
}

// NoSnapshotID is what CurrentSnapshotID returns for an empty table.
const NoSnapshotID int64 = -1

func (m *TableMetadata) FormatVersion() int        { return m.formatVersion }
func (m *TableMetadata) TableUUID() string         { return m.uuid }
func (m *TableMetadata) Location() string          { return m.location }
func (m *TableMetadata) LastSequenceNumber() int64 { return m.lastSequenceNumber }
func (m *TableMetadata) LastUpdatedMs() int64      { return m.lastUpdatedMs }
func (m *TableMetadata) LastColumnID() int         { return m.lastColumnID }
func (m *TableMetadata) Schemas() []*Schema        { return m.schemas }
func (m *TableMetadata) CurrentSchemaID() int      { return m.currentSchemaID }
func (m *TableMetadata) Specs() []*PartitionSpec   { return m.specs }
func (m *TableMetadata) DefaultSpecID() int        { return m.defaultSpecID }
func (m *TableMetadata) LastPartitionID() int      { return m.lastPartitionID }
func (m *TableMetadata) Properties() map[string]string {
	return m.properties
}
func (m *TableMetadata) CurrentSnapshotID() int64 { return m.currentSnapshotID }

// Snapshots and SnapshotLog are full slices (no room to append): their
// arrays are shared with other versions.
func (m *TableMetadata) Snapshots() []*Snapshot {
	return m.snapshots[:len(m.snapshots):len(m.snapshots)]
}
func (m *TableMetadata) SnapshotLog() []SnapshotLogEntry {
	return m.snapshotLog[:len(m.snapshotLog):len(m.snapshotLog)]
}
func (m *TableMetadata) MetadataLog() []MetadataLogEntry { return m.metadataLog }
func (m *TableMetadata) SortOrders() []*SortOrder        { return m.sortOrders }
func (m *TableMetadata) DefaultSortOrderID() int         { return m.defaultSortOrderID }
func (m *TableMetadata) Refs() map[string]SnapshotRef    { return m.refs }
func (m *TableMetadata) Statistics() []StatisticsFile    { return m.statistics }
func (m *TableMetadata) PartitionStatistics() []PartitionStatisticsFile {
	return m.partitionStats
}

// NextRowID is the v3 next-row-id (0 for v1/v2 tables).
func (m *TableMetadata) NextRowID() int64 { return m.nextRowID }

// NextSequenceNumber is the sequence number the next snapshot gets (0 in v1).
func (m *TableMetadata) NextSequenceNumber() int64 {
	if m.formatVersion == 1 {
		return 0
	}
	return m.lastSequenceNumber + 1
}

// CurrentSchema returns the schema with the current schema id.
func (m *TableMetadata) CurrentSchema() *Schema {
	s, _ := m.SchemaByID(m.currentSchemaID)
	return s
}

// SchemaByID returns a schema by id.
func (m *TableMetadata) SchemaByID(id int) (*Schema, bool) {
	for _, s := range m.schemas {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// CurrentSpec returns the default partition spec.
func (m *TableMetadata) CurrentSpec() *PartitionSpec {
	s, _ := m.SpecByID(m.defaultSpecID)
	return s
}

// SpecByID returns a partition spec by id.
func (m *TableMetadata) SpecByID(id int) (*PartitionSpec, bool) {
	for _, s := range m.specs {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// SortOrder returns the default sort order.
func (m *TableMetadata) SortOrder() *SortOrder {
	o, _ := m.SortOrderByID(m.defaultSortOrderID)
	return o
}

// SortOrderByID returns a sort order by id.
func (m *TableMetadata) SortOrderByID(id int) (*SortOrder, bool) {
	for _, o := range m.sortOrders {
		if o.OrderID == id {
			return o, true
		}
	}
	return nil, false
}

// CurrentSnapshot returns main's snapshot, or nil for an empty table.
func (m *TableMetadata) CurrentSnapshot() *Snapshot {
	if m.currentSnapshotID == NoSnapshotID {
		return nil
	}
	s, _ := m.SnapshotByID(m.currentSnapshotID)
	return s
}

// SnapshotByID returns a snapshot by id.
func (m *TableMetadata) SnapshotByID(id int64) (*Snapshot, bool) {
	return m.snapRun.find(m.snapshots, id)
}

// Ref returns a branch or tag by name.
func (m *TableMetadata) Ref(name string) (SnapshotRef, bool) {
	r, ok := m.refs[name]
	return r, ok
}

// SnapshotByName returns the snapshot a branch or tag points to; the
// error wraps ErrNoSuchRef.
func (m *TableMetadata) SnapshotByName(name string) (*Snapshot, error) {
	r, ok := m.refs[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoSuchRef, name)
	}
	s, ok := m.SnapshotByID(r.SnapshotID)
	if !ok {
		return nil, fmt.Errorf("%w: ref %q points to snapshot %d", ErrNoSuchSnapshot, name, r.SnapshotID)
	}
	return s, nil
}

// SnapshotAsOf returns the snapshot that was current on main at
// timestampMs, from the snapshot log; the error wraps ErrNoSuchSnapshot
// when the table had no snapshot then.
func (m *TableMetadata) SnapshotAsOf(timestampMs int64) (*Snapshot, error) {
	var found *SnapshotLogEntry
	for i := range m.snapshotLog {
		e := &m.snapshotLog[i]
		if e.TimestampMs <= timestampMs {
			found = e
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%w: no snapshot as of timestamp %d ms", ErrNoSuchSnapshot, timestampMs)
	}
	s, ok := m.SnapshotByID(found.SnapshotID)
	if !ok {
		return nil, fmt.Errorf("%w: snapshot %d (current at %d ms) has expired", ErrNoSuchSnapshot, found.SnapshotID, timestampMs)
	}
	return s, nil
}

// Ancestors yields the snapshot with the given id, then its parent, and so
// on, stopping at the first snapshot that is missing (expired or the root).
func (m *TableMetadata) Ancestors(snapshotID int64) iter.Seq[*Snapshot] {
	return func(yield func(*Snapshot) bool) {
		id := snapshotID
		// The bound protects against a parent cycle in hand-made metadata.
		for range len(m.snapshots) {
			s, ok := m.SnapshotByID(id)
			if !ok || !yield(s) || s.ParentSnapshotID == nil {
				return
			}
			id = *s.ParentSnapshotID
		}
	}
}

// Property returns a table property or def when unset.
func (m *TableMetadata) Property(key, def string) string {
	if v, ok := m.properties[key]; ok {
		return v
	}
	return def
}

// PropertyInt returns an integer property, or def when unset or not an
// integer.
func (m *TableMetadata) PropertyInt(key string, def int64) int64 {
	v, ok := m.properties[key]
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return def
	}
	return n
}

// PropertyBool returns a boolean property, or def when unset or not a
// boolean ("true"/"false", case-insensitive as in Java).
func (m *TableMetadata) PropertyBool(key string, def bool) bool {
	v, ok := m.properties[key]
	if !ok {
		return def
	}
	switch {
	case strings.EqualFold(v, "true"):
		return true
	case strings.EqualFold(v, "false"):
		return false
	}
	return def
}

// metaErrorf wraps a sentinel with a formatted message.
func metaErrorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}

// validate checks the cross-references of a metadata value; every error
// wraps ErrInvalidMetadata.
func (m *TableMetadata) validate() error {
	if m.formatVersion < 1 || m.formatVersion > MaxSupportedFormatVersion {
		return metaErrorf(ErrInvalidMetadata, "unsupported format-version %d", m.formatVersion)
	}
	if m.location == "" {
		return metaErrorf(ErrInvalidMetadata, "empty location")
	}
	if m.uuid != "" && !isUUIDText(m.uuid) {
		return metaErrorf(ErrInvalidMetadata, "table-uuid %q is not a UUID", m.uuid)
	}
	if m.lastSequenceNumber < 0 || m.nextRowID < 0 {
		return metaErrorf(ErrInvalidMetadata, "negative last-sequence-number or next-row-id")
	}
	if err := m.validateSchemas(); err != nil {
		return err
	}
	if err := m.validateSpecs(); err != nil {
		return err
	}
	if err := m.validateSortOrders(); err != nil {
		return err
	}
	return m.validateSnapshots()
}

func (m *TableMetadata) validateSchemas() error {
	if len(m.schemas) == 0 {
		return metaErrorf(ErrInvalidMetadata, "no schemas")
	}
	seen := map[int]bool{}
	for _, s := range m.schemas {
		if seen[s.ID] {
			return metaErrorf(ErrInvalidMetadata, "schema id %d is used twice", s.ID)
		}
		seen[s.ID] = true
		if s.HighestFieldID() > m.lastColumnID {
			return metaErrorf(ErrInvalidMetadata, "schema %d uses field id %d above last-column-id %d", s.ID, s.HighestFieldID(), m.lastColumnID)
		}
	}
	if !seen[m.currentSchemaID] {
		return metaErrorf(ErrInvalidMetadata, "current-schema-id %d is not in schemas", m.currentSchemaID)
	}
	return nil
}

func (m *TableMetadata) validateSpecs() error {
	if len(m.specs) == 0 {
		return metaErrorf(ErrInvalidMetadata, "no partition specs")
	}
	seen := map[int]bool{}
	for _, s := range m.specs {
		if seen[s.ID] {
			return metaErrorf(ErrInvalidMetadata, "partition spec id %d is used twice", s.ID)
		}
		seen[s.ID] = true
		ids, names := map[int]bool{}, map[string]bool{}
		for _, f := range s.Fields {
			if f.Transform == nil {
				return metaErrorf(ErrInvalidMetadata, "partition spec %d field %q has no transform", s.ID, f.Name)
			}
			if ids[f.FieldID] || names[f.Name] {
				return metaErrorf(ErrInvalidMetadata, "partition spec %d repeats field %d %q", s.ID, f.FieldID, f.Name)
			}
			ids[f.FieldID], names[f.Name] = true, true
			if f.FieldID > m.lastPartitionID {
				return metaErrorf(ErrInvalidMetadata, "partition field id %d is above last-partition-id %d", f.FieldID, m.lastPartitionID)
			}
		}
	}
	if !seen[m.defaultSpecID] {
		return metaErrorf(ErrInvalidMetadata, "default-spec-id %d is not in partition-specs", m.defaultSpecID)
	}
	schema := m.CurrentSchema()
	for _, f := range m.CurrentSpec().Fields {
		if _, ok := schema.FindFieldByID(f.SourceID); !ok && f.Transform.String() != "void" {
			return metaErrorf(ErrInvalidMetadata, "default partition spec field %q has source id %d not in the current schema", f.Name, f.SourceID)
		}
	}
	return nil
}

func (m *TableMetadata) validateSortOrders() error {
	if len(m.sortOrders) == 0 {
		return metaErrorf(ErrInvalidMetadata, "no sort orders")
	}
	seen := map[int]bool{}
	for _, o := range m.sortOrders {
		if seen[o.OrderID] {
			return metaErrorf(ErrInvalidMetadata, "sort order id %d is used twice", o.OrderID)
		}
		seen[o.OrderID] = true
		if o.OrderID == 0 && len(o.Fields) > 0 {
			return metaErrorf(ErrInvalidMetadata, "sort order 0 is reserved for unsorted but has fields")
		}
		for _, f := range o.Fields {
			if f.Transform == nil {
				return metaErrorf(ErrInvalidMetadata, "sort order %d has a field without transform", o.OrderID)
			}
		}
	}
	if !seen[m.defaultSortOrderID] {
		return metaErrorf(ErrInvalidMetadata, "default-sort-order-id %d is not in sort-orders", m.defaultSortOrderID)
	}
	schema := m.CurrentSchema()
	for _, f := range m.SortOrder().Fields {
		if _, ok := schema.FindFieldByID(f.SourceID); !ok {
			return metaErrorf(ErrInvalidMetadata, "default sort order uses source id %d not in the current schema", f.SourceID)
		}
	}
	return nil
}

func (m *TableMetadata) validateSnapshots() error {
	run := m.snapRun
	if run == nil {
		run = newSnapshotRun(m.snapshots)
	}
	if id, dup := run.duplicate(m.snapshots); dup {
		return metaErrorf(ErrInvalidMetadata, "snapshot id %d is used twice", id)
	}
	seen := func(id int64) bool { _, ok := run.find(m.snapshots, id); return ok }
	from := run.checked(len(m.snapshots), m.formatVersion, m.lastSequenceNumber)
	for _, s := range m.snapshots[from:] {
		if m.formatVersion >= 2 && s.ManifestList == "" {
			return metaErrorf(ErrInvalidMetadata, "snapshot %d has no manifest-list", s.SnapshotID)
		}
		if s.SequenceNumber > m.lastSequenceNumber {
			return metaErrorf(ErrInvalidMetadata, "snapshot %d has sequence-number %d above last-sequence-number %d", s.SnapshotID, s.SequenceNumber, m.lastSequenceNumber)
		}
	}
	run.setChecked(len(m.snapshots), m.formatVersion, m.lastSequenceNumber)
	if m.currentSnapshotID != NoSnapshotID && !seen(m.currentSnapshotID) {
		return metaErrorf(ErrInvalidMetadata, "current-snapshot-id %d is not in snapshots", m.currentSnapshotID)
	}
	for name, r := range m.refs {
		if err := r.validate(name); err != nil {
			return err
		}
		if !seen(r.SnapshotID) {
			return metaErrorf(ErrInvalidMetadata, "ref %q points to missing snapshot %d", name, r.SnapshotID)
		}
	}
	main, hasMain := m.refs[MainBranch]
	switch {
	case m.currentSnapshotID == NoSnapshotID && hasMain:
		return metaErrorf(ErrInvalidMetadata, "current snapshot is not set, but main branch points to %d", main.SnapshotID)
	case m.currentSnapshotID != NoSnapshotID && main.SnapshotID != m.currentSnapshotID:
		return metaErrorf(ErrInvalidMetadata, "current-snapshot-id %d does not match main branch %d", m.currentSnapshotID, main.SnapshotID)
	}
	return nil
}

// isUUIDText reports whether s has the 8-4-4-4-12 hex form.
func isUUIDText(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// NewMetadataFileName returns "<version, 5 digits>-<random uuid>.metadata.json",
// the name Java gives a table's version-th metadata file.
func NewMetadataFileName(version int) string {
	return fmt.Sprintf("%05d-%s.metadata.json", version, NewUUIDString())
}

// ParseMetadataVersion returns the version number a metadata file name
// starts with (the digits before the first '-'), or -1.
func ParseMetadataVersion(path string) int {
	name := path[strings.LastIndexByte(path, '/')+1:]
	digits, _, ok := strings.Cut(name, "-")
	if !ok || digits == "" {
		return -1
	}
	for i := range len(digits) {
		if digits[i] < '0' || digits[i] > '9' {
			return -1
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return -1
	}
	return n
}

// IsGzipMetadataPath reports whether a metadata file name says gzip
// (".gz.metadata.json", or the older ".metadata.json.gz").
func IsGzipMetadataPath(path string) bool {
	return strings.HasSuffix(path, ".gz.metadata.json") || strings.HasSuffix(path, ".metadata.json.gz")
}
