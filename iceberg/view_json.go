package iceberg

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// The JSON shapes of the View Spec. Pointers tell a missing required
// field from a zero value; field order is Java's ViewMetadataParser's.
type viewMetadataJSON struct {
	UUID             *string            `json:"view-uuid"`
	FormatVersion    *int64             `json:"format-version"`
	Location         *string            `json:"location"`
	Properties       map[string]string  `json:"properties,omitempty"`
	Schemas          *[]json.RawMessage `json:"schemas"`
	CurrentVersionID *int64             `json:"current-version-id"`
	Versions         *[]json.RawMessage `json:"versions"`
	VersionLog       *[]viewLogJSON     `json:"version-log"`
}

type viewVersionJSON struct {
	VersionID        *int64             `json:"version-id"`
	TimestampMs      *int64             `json:"timestamp-ms"`
	SchemaID         *int64             `json:"schema-id"`
	Summary          *map[string]string `json:"summary"`
	DefaultCatalog   *string            `json:"default-catalog,omitempty"`
	DefaultNamespace *[]string          `json:"default-namespace"`
	Representations  *[]json.RawMessage `json:"representations"`
	StorageTable     *storageTableJSON  `json:"storage-table,omitempty"`
}

type storageTableJSON struct {
	Namespace *[]string `json:"namespace"`
	Name      *string   `json:"name"`
}

type representationJSON struct {
	Type    *string `json:"type"`
	SQL     *string `json:"sql,omitempty"`
	Dialect *string `json:"dialect,omitempty"`
}

type viewLogJSON struct {
	TimestampMs *int64 `json:"timestamp-ms"`
	VersionID   *int64 `json:"version-id"`
}

// ParseViewMetadata parses and validates a view metadata file. Errors
// wrap ErrInvalidViewMetadata (ErrInvalidSchema for a bad schema).
func ParseViewMetadata(data []byte) (*ViewMetadata, error) {
	var mj viewMetadataJSON
	if err := viewUnmarshal(data, &mj); err != nil {
		return nil, viewErrorf("view metadata", "bad JSON: %v", err)
	}
	m := &ViewMetadata{Properties: mj.Properties}
	var err error
	if m.UUID, err = viewRequiredString("view-uuid", mj.UUID); err != nil {
		return nil, err
	}
	if m.FormatVersion, err = viewRequiredInt("format-version", mj.FormatVersion); err != nil {
		return nil, err
	}
	if m.Location, err = viewRequiredString("location", mj.Location); err != nil {
		return nil, err
	}
	if m.CurrentVersionID, err = viewRequiredInt("current-version-id", mj.CurrentVersionID); err != nil {
		return nil, err
	}
	if mj.Schemas == nil {
		return nil, viewErrorf("schemas", "missing")
	}
	for i, raw := range *mj.Schemas {
		s, err := ParseSchemaJSON(raw)
		if err != nil {
			return nil, viewErrorf("schemas["+strconv.Itoa(i)+"]", "%v", err)
		}
		m.Schemas = append(m.Schemas, s)
	}
	if mj.Versions == nil {
		return nil, viewErrorf("versions", "missing")
	}
	for i, raw := range *mj.Versions {
		v, err := parseViewVersion("versions["+strconv.Itoa(i)+"]", raw)
		if err != nil {
			return nil, err
		}
		m.Versions = append(m.Versions, v)
	}
	if mj.VersionLog == nil {
		return nil, viewErrorf("version-log", "missing")
	}
	for i, e := range *mj.VersionLog {
		field := "version-log[" + strconv.Itoa(i) + "]"
		if e.TimestampMs == nil {
			return nil, viewErrorf(field+".timestamp-ms", "missing")
		}
		id, err := viewRequiredInt(field+".version-id", e.VersionID)
		if err != nil {
			return nil, err
		}
		m.VersionLog = append(m.VersionLog, ViewLogEntry{TimestampMs: *e.TimestampMs, VersionID: id})
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func parseViewVersion(field string, raw json.RawMessage) (ViewVersion, error) {
	var vj viewVersionJSON
	if err := viewUnmarshal(raw, &vj); err != nil {
		return ViewVersion{}, viewErrorf(field, "bad JSON: %v", err)
	}
	var v ViewVersion
	var err error
	if v.VersionID, err = viewRequiredInt(field+".version-id", vj.VersionID); err != nil {
		return v, err
	}
	if v.SchemaID, err = viewRequiredInt(field+".schema-id", vj.SchemaID); err != nil {
		return v, err
	}
	if vj.TimestampMs == nil {
		return v, viewErrorf(field+".timestamp-ms", "missing")
	}
	v.TimestampMs = *vj.TimestampMs
	if vj.Summary == nil {
		return v, viewErrorf(field+".summary", "missing")
	}
	v.Summary = *vj.Summary
	if vj.DefaultNamespace == nil {
		return v, viewErrorf(field+".default-namespace", "missing")
	}
	v.DefaultNamespace = *vj.DefaultNamespace
	if vj.DefaultCatalog != nil {
		v.DefaultCatalog = *vj.DefaultCatalog
	}
	if vj.Representations == nil {
		return v, viewErrorf(field+".representations", "missing")
	}
	for j, rraw := range *vj.Representations {
		r, err := parseRepresentation(field+".representations["+strconv.Itoa(j)+"]", rraw)
		if err != nil {
			return v, err
		}
		v.Representations = append(v.Representations, r)
	}
	if st := vj.StorageTable; st != nil {
		if st.Name == nil || st.Namespace == nil {
			return v, viewErrorf(field+".storage-table", "needs namespace and name")
		}
		v.StorageTable = &ViewStorageTable{Namespace: *st.Namespace, Name: *st.Name}
	}
	return v, nil
}

func parseRepresentation(field string, raw json.RawMessage) (ViewRepresentation, error) {
	var rj representationJSON
	if err := viewUnmarshal(raw, &rj); err != nil {
		return ViewRepresentation{}, viewErrorf(field, "bad JSON: %v", err)
	}
	typ, err := viewRequiredString(field+".type", rj.Type)
	if err != nil {
		return ViewRepresentation{}, err
	}
	if typ != ViewRepresentationSQL {
		// Another engine's representation: kept whole, as Java does.
		return ViewRepresentation{Type: typ, Raw: bytes.Clone(raw)}, nil
	}
	r := ViewRepresentation{Type: typ}
	if rj.SQL == nil {
		return r, viewErrorf(field+".sql", "missing")
	}
	r.SQL = *rj.SQL
	if r.Dialect, err = viewRequiredString(field+".dialect", rj.Dialect); err != nil {
		return r, err
	}
	return r, nil
}

// viewUnmarshal decodes one JSON object (trailing data is an error).
func viewUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errViewTrailingJSON
	}
	return nil
}

var errViewTrailingJSON = &ViewFieldError{Field: "view metadata", Reason: "data after the JSON object"}

func viewRequiredString(field string, p *string) (string, error) {
	if p == nil {
		return "", viewErrorf(field, "missing")
	}
	return *p, nil
}

// viewRequiredInt reads an id or version that Java holds in an int.
func viewRequiredInt(field string, p *int64) (int, error) {
	if p == nil {
		return 0, viewErrorf(field, "missing")
	}
	if *p < math.MinInt32 || *p > math.MaxInt32 {
		return 0, viewErrorf(field, "%d is out of range", *p)
	}
	return int(*p), nil
}

// EncodeViewMetadata validates m and writes it as JSON, fields in Java's
// order (view-uuid, format-version, location, properties, schemas,
// current-version-id, versions, version-log).
func EncodeViewMetadata(m *ViewMetadata) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	schemas := make([]json.RawMessage, len(m.Schemas))
	for i, s := range m.Schemas {
		raw, err := s.MarshalJSON()
		if err != nil {
			return nil, err
		}
		schemas[i] = raw
	}
	versions := make([]json.RawMessage, len(m.Versions))
	for i, v := range m.Versions {
		raw, err := encodeViewVersion(v)
		if err != nil {
			return nil, err
		}
		versions[i] = raw
	}
	log := make([]viewLogJSON, len(m.VersionLog))
	for i, e := range m.VersionLog {
		log[i] = viewLogJSON{TimestampMs: viewPtr(e.TimestampMs), VersionID: viewPtr(int64(e.VersionID))}
	}
	return json.Marshal(viewMetadataJSON{
		UUID:             viewPtr(m.UUID),
		FormatVersion:    viewPtr(int64(m.FormatVersion)),
		Location:         viewPtr(m.Location),
		Properties:       m.Properties,
		Schemas:          &schemas,
		CurrentVersionID: viewPtr(int64(m.CurrentVersionID)),
		Versions:         &versions,
		VersionLog:       &log,
	})
}

func encodeViewVersion(v ViewVersion) (json.RawMessage, error) {
	summary := v.Summary
	if summary == nil {
		summary = map[string]string{}
	}
	ns := v.DefaultNamespace
	if ns == nil {
		ns = []string{}
	}
	reps := make([]json.RawMessage, len(v.Representations))
	for i, r := range v.Representations {
		if r.Type != ViewRepresentationSQL && len(r.Raw) > 0 {
			reps[i] = r.Raw
			continue
		}
		raw, err := json.Marshal(representationJSON{Type: viewPtr(r.Type), SQL: viewPtr(r.SQL), Dialect: viewPtr(r.Dialect)})
		if err != nil {
			return nil, err
		}
		reps[i] = raw
	}
	vj := viewVersionJSON{
		VersionID:        viewPtr(int64(v.VersionID)),
		TimestampMs:      viewPtr(v.TimestampMs),
		SchemaID:         viewPtr(int64(v.SchemaID)),
		Summary:          &summary,
		DefaultNamespace: &ns,
		Representations:  &reps,
	}
	if v.DefaultCatalog != "" {
		vj.DefaultCatalog = viewPtr(v.DefaultCatalog)
	}
	if st := v.StorageTable; st != nil {
		stns := st.Namespace
		if stns == nil {
			stns = []string{}
		}
		vj.StorageTable = &storageTableJSON{Namespace: &stns, Name: viewPtr(st.Name)}
	}
	return json.Marshal(vj)
}

func viewPtr[T any](v T) *T { return &v }

// ParseViewVersionJSON reads one view version object (the REST catalog's
// ViewVersion).
func ParseViewVersionJSON(data []byte) (ViewVersion, error) {
	return parseViewVersion("view-version", data)
}

// EncodeViewVersionJSON writes one view version object.
func EncodeViewVersionJSON(v ViewVersion) ([]byte, error) { return encodeViewVersion(v) }
