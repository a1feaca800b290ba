package iceberg

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// ViewFormatVersion is the only view format-version of the View Spec.
const ViewFormatVersion = 1

// View property keys and defaults (Java's ViewProperties).
const (
	ViewPropertyComment           = "comment"
	ViewPropertyVersionHistory    = "version.history.num-entries"
	ViewVersionHistoryDefault     = 10
	ViewRepresentationSQL         = "sql"
	ViewSummaryEngineName         = "engine-name"
	ViewSummaryEngineVersion      = "engine-version"
	viewVersionHistoryMinimumKept = 1
)

// ViewMetadata is the content of one view metadata file (View Spec,
// format-version 1). Values returned by ParseViewMetadata,
// NewViewMetadata and ReplaceVersion are treated as immutable: a change
// makes a new value (and a new file).
type ViewMetadata struct {
	UUID             string
	FormatVersion    int
	Location         string
	Schemas          []*Schema
	CurrentVersionID int
	Versions         []ViewVersion
	VersionLog       []ViewLogEntry
	Properties       map[string]string // nil or empty: no "properties" key
}

// ViewVersion is one immutable definition of a view.
type ViewVersion struct {
	VersionID       int
	TimestampMs     int64
	SchemaID        int
	Summary         map[string]string
	Representations []ViewRepresentation
	// DefaultCatalog is "" when unset (the view's own catalog).
	DefaultCatalog string
	// DefaultNamespace resolves one-part names of the SQL; may be empty.
	DefaultNamespace []string
	// StorageTable is set for a materialized view; kept so a file written
	// by another engine round-trips.
	StorageTable *ViewStorageTable
}

// ViewStorageTable names a materialized view's storage table.
type ViewStorageTable struct {
	Namespace []string
	Name      string
}

// ViewRepresentation is one way to express a version's definition. For
// Type "sql", SQL and Dialect are set; other types keep their JSON object
// in Raw so it is written back unchanged.
type ViewRepresentation struct {
	Type    string
	SQL     string
	Dialect string
	Raw     []byte
}

// ViewLogEntry records that current-version-id became VersionID.
type ViewLogEntry struct {
	TimestampMs int64
	VersionID   int
}

// CurrentVersion is the version current-version-id names (validated
// metadata always has it).
func (m *ViewMetadata) CurrentVersion() (ViewVersion, bool) { return m.VersionByID(m.CurrentVersionID) }

// VersionByID finds a version.
func (m *ViewMetadata) VersionByID(id int) (ViewVersion, bool) {
	for _, v := range m.Versions {
		if v.VersionID == id {
			return v, true
		}
	}
	return ViewVersion{}, false
}

// SchemaByID finds a schema.
func (m *ViewMetadata) SchemaByID(id int) (*Schema, bool) {
	for _, s := range m.Schemas {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// CurrentSchema is the schema of the current version (nil only for
// metadata that fails Validate).
func (m *ViewMetadata) CurrentSchema() *Schema {
	v, ok := m.CurrentVersion()
	if !ok {
		return nil
	}
	s, _ := m.SchemaByID(v.SchemaID)
	return s
}

// SQL returns the SQL representation of the first dialect in prefer that
// the version has (case-insensitive), else its first SQL representation;
// false when the version has none.
func (v ViewVersion) SQL(prefer ...string) (ViewRepresentation, bool) {
	for _, d := range prefer {
		for _, r := range v.Representations {
			if r.Type == ViewRepresentationSQL && strings.EqualFold(r.Dialect, d) {
				return r, true
			}
		}
	}
	for _, r := range v.Representations {
		if r.Type == ViewRepresentationSQL {
			return r, true
		}
	}
	return ViewRepresentation{}, false
}

// Validate checks what the View Spec and Java's ViewMetadata require:
// format-version 1, a UUID and location, unique schema and version ids,
// a current version whose schema exists, and at most one SQL
// representation per dialect in each version. Errors are
// *ViewFieldError values wrapping ErrInvalidViewMetadata.
func (m *ViewMetadata) Validate() error {
	if m.FormatVersion != ViewFormatVersion {
		return viewErrorf("format-version", "unsupported view format version %d (want %d)", m.FormatVersion, ViewFormatVersion)
	}
	if m.UUID == "" {
		return viewErrorf("view-uuid", "empty")
	}
	if m.Location == "" {
		return viewErrorf("location", "empty")
	}
	if len(m.Schemas) == 0 {
		return viewErrorf("schemas", "no schemas")
	}
	schemaIDs := map[int]bool{}
	for i, s := range m.Schemas {
		if s == nil {
			return viewErrorf("schemas", "schema %d is null", i)
		}
		if schemaIDs[s.ID] {
			return viewErrorf("schemas", "schema id %d appears twice", s.ID)
		}
		schemaIDs[s.ID] = true
	}
	if len(m.Versions) == 0 {
		return viewErrorf("versions", "no versions")
	}
	versionIDs := map[int]bool{}
	for i, v := range m.Versions {
		if err := v.validate(i, schemaIDs); err != nil {
			return err
		}
		if versionIDs[v.VersionID] {
			return viewErrorf("versions", "version id %d appears twice", v.VersionID)
		}
		versionIDs[v.VersionID] = true
	}
	if !versionIDs[m.CurrentVersionID] {
		return viewErrorf("current-version-id", "version %d is not in versions", m.CurrentVersionID)
	}
	for k := range m.Properties {
		if k == "" {
			return viewErrorf("properties", "empty key")
		}
	}
	return nil
}

func (v ViewVersion) validate(i int, schemaIDs map[int]bool) error {
	field := "versions[" + strconv.Itoa(i) + "]"
	if !schemaIDs[v.SchemaID] {
		return viewErrorf(field+".schema-id", "schema %d is not in schemas", v.SchemaID)
	}
	if len(v.Representations) == 0 {
		return viewErrorf(field+".representations", "no representations")
	}
	dialects := map[string]bool{}
	for j, r := range v.Representations {
		rf := field + ".representations[" + strconv.Itoa(j) + "]"
		if r.Type == "" {
			return viewErrorf(rf+".type", "empty")
		}
		if r.Type != ViewRepresentationSQL {
			continue
		}
		if r.Dialect == "" {
			return viewErrorf(rf+".dialect", "empty")
		}
		d := strings.ToLower(r.Dialect)
		if dialects[d] {
			return viewErrorf(rf+".dialect", "a second SQL representation for dialect %q", r.Dialect)
		}
		dialects[d] = true
	}
	for j, level := range v.DefaultNamespace {
		if level == "" {
			return viewErrorf(field+".default-namespace", "level %d is empty", j)
		}
	}
	if st := v.StorageTable; st != nil && st.Name == "" {
		return viewErrorf(field+".storage-table.name", "empty")
	}
	return nil
}

// NewViewMetadata is the metadata of a new view: a fresh UUID, schema id
// 0, version id 1 (whatever ids schema and version carry) and one
// version-log entry at the version's timestamp.
func NewViewMetadata(location string, schema *Schema, version ViewVersion, props map[string]string) (*ViewMetadata, error) {
	if schema == nil {
		return nil, viewErrorf("schemas", "no schema")
	}
	s, err := NewSchema(0, schema.Fields(), schema.IdentifierFieldIDs...)
	if err != nil {
		return nil, err
	}
	version.VersionID, version.SchemaID = 1, 0
	m := &ViewMetadata{
		UUID:             NewUUIDString(),
		FormatVersion:    ViewFormatVersion,
		Location:         strings.TrimRight(location, "/"),
		Schemas:          []*Schema{s},
		CurrentVersionID: 1,
		Versions:         []ViewVersion{version},
		VersionLog:       []ViewLogEntry{{TimestampMs: version.TimestampMs, VersionID: 1}},
		Properties:       copyStringMap(props),
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// ReplaceVersion returns new metadata whose current version is version
// with schema, as Java's view replace does: an equal schema already
// present is reused (else the next schema id), an equal version already
// present is made current again (else the next version id), the version
// log gains an entry, and only the newest version.history.num-entries
// versions are kept (the current one always). props, when non-nil,
// replace the view's properties.
func (m *ViewMetadata) ReplaceVersion(schema *Schema, version ViewVersion, props map[string]string) (*ViewMetadata, error) {
	if schema == nil {
		return nil, viewErrorf("schemas", "no schema")
	}
	out := &ViewMetadata{
		UUID:          m.UUID,
		FormatVersion: m.FormatVersion,
		Location:      m.Location,
		Schemas:       append([]*Schema(nil), m.Schemas...),
		Versions:      append([]ViewVersion(nil), m.Versions...),
		VersionLog:    append([]ViewLogEntry(nil), m.VersionLog...),
		Properties:    copyStringMap(m.Properties),
	}
	if props != nil {
		out.Properties = copyStringMap(props)
	}
	version.SchemaID = -1
	maxSchema := math.MinInt
	for _, s := range out.Schemas {
		if sameViewSchema(s, schema) {
			version.SchemaID = s.ID
		}
		maxSchema = max(maxSchema, s.ID)
	}
	if version.SchemaID < 0 {
		s, err := NewSchema(maxSchema+1, schema.Fields(), schema.IdentifierFieldIDs...)
		if err != nil {
			return nil, err
		}
		out.Schemas = append(out.Schemas, s)
		version.SchemaID = s.ID
	}
	version.VersionID = 0
	maxVersion := 0
	for _, v := range out.Versions {
		if sameViewVersion(v, version) {
			version.VersionID = v.VersionID
		}
		maxVersion = max(maxVersion, v.VersionID)
	}
	if version.VersionID == 0 {
		version.VersionID = maxVersion + 1
		out.Versions = append(out.Versions, version)
	}
	out.CurrentVersionID = version.VersionID
	out.VersionLog = append(out.VersionLog, ViewLogEntry{TimestampMs: version.TimestampMs, VersionID: version.VersionID})
	out.expireVersions()
	if err := out.Validate(); err != nil {
		return nil, err
	}
	return out, nil
}

// expireVersions keeps the newest versions (by id) up to the history
// property, always the current one, and drops log entries of removed
// versions.
func (m *ViewMetadata) expireVersions() {
	keep := ViewVersionHistoryDefault
	if s, ok := m.Properties[ViewPropertyVersionHistory]; ok {
		if n, err := strconv.Atoi(s); err == nil {
			keep = max(n, viewVersionHistoryMinimumKept)
		}
	}
	if len(m.Versions) <= keep {
		return
	}
	ids := make([]int, 0, len(m.Versions))
	for _, v := range m.Versions {
		ids = append(ids, v.VersionID)
	}
	// The current version and the highest other ids survive.
	slices.Sort(ids)
	kept := map[int]bool{m.CurrentVersionID: true}
	for i := len(ids) - 1; i >= 0 && len(kept) < keep; i-- {
		kept[ids[i]] = true
	}
	versions := m.Versions[:0:0]
	for _, v := range m.Versions {
		if kept[v.VersionID] {
			versions = append(versions, v)
		}
	}
	log := m.VersionLog[:0:0]
	for _, e := range m.VersionLog {
		if kept[e.VersionID] {
			log = append(log, e)
		}
	}
	m.Versions, m.VersionLog = versions, log
}

// sameViewSchema compares fields, types and docs (the ids are assigned
// the same way for an equal query, so they compare too).
func sameViewSchema(a, b *Schema) bool {
	if !a.Equals(b) {
		return false
	}
	af, bf := a.Fields(), b.Fields()
	for i := range af {
		if af[i].Doc != bf[i].Doc {
			return false
		}
	}
	return true
}

// sameViewVersion is Java's version equality for reuse: everything but
// the id and the timestamp.
func sameViewVersion(a, b ViewVersion) bool {
	if a.SchemaID != b.SchemaID || a.DefaultCatalog != b.DefaultCatalog ||
		!equalStrings(a.DefaultNamespace, b.DefaultNamespace) || !equalStringMaps(a.Summary, b.Summary) ||
		len(a.Representations) != len(b.Representations) || (a.StorageTable == nil) != (b.StorageTable == nil) {
		return false
	}
	for i, r := range a.Representations {
		o := b.Representations[i]
		if r.Type != o.Type || r.SQL != o.SQL || !strings.EqualFold(r.Dialect, o.Dialect) || string(r.Raw) != string(o.Raw) {
			return false
		}
	}
	if a.StorageTable != nil {
		return a.StorageTable.Name == b.StorageTable.Name && equalStrings(a.StorageTable.Namespace, b.StorageTable.Namespace)
	}
	return true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalStringMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func copyStringMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
