package iceberg

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readViewGolden(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "views", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// jsonValue decodes JSON into maps and slices for order-free comparison.
func jsonValue(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestViewMetadataSpecExamples(t *testing.T) {
	for _, name := range []string{"spec-example-v2.metadata.json", "spec-materialized.metadata.json"} {
		t.Run(name, func(t *testing.T) {
			golden := readViewGolden(t, name)
			m, err := ParseViewMetadata(golden)
			if err != nil {
				t.Fatal(err)
			}
			out, err := EncodeViewMetadata(m)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := jsonValue(t, out), jsonValue(t, golden); !reflect.DeepEqual(got, want) {
				t.Fatalf("round trip changed the file:\n got %s\nwant %s", out, golden)
			}
			again, err := ParseViewMetadata(out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.Versions, m.Versions) || again.CurrentVersionID != m.CurrentVersionID {
				t.Fatalf("re-parse differs: %+v vs %+v", again.Versions, m.Versions)
			}
		})
	}
}

func TestViewMetadataSpecExampleFields(t *testing.T) {
	m, err := ParseViewMetadata(readViewGolden(t, "spec-example-v2.metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, ok := m.CurrentVersion()
	if !ok || v.VersionID != 2 || v.DefaultCatalog != "prod" || !reflect.DeepEqual(v.DefaultNamespace, []string{"default"}) {
		t.Fatalf("current version = %+v, %v", v, ok)
	}
	r, ok := v.SQL("trino", "spark")
	if !ok || r.Dialect != "spark" || !strings.Contains(r.SQL, "FROM prod.default.events") {
		t.Fatalf("SQL = %+v, %v", r, ok)
	}
	s := m.CurrentSchema()
	if s == nil || s.ID != 1 || len(s.Fields()) != 2 || s.Fields()[0].Doc != "Count of events" {
		t.Fatalf("schema = %v", s)
	}
	if m.Properties["comment"] != "Daily event counts" || len(m.VersionLog) != 2 {
		t.Fatalf("properties %v, log %v", m.Properties, m.VersionLog)
	}
}

// mutateGolden decodes the spec example, lets fn change it and encodes
// it again.
func mutateGolden(t *testing.T, fn func(m map[string]any)) []byte {
	t.Helper()
	m := jsonValue(t, readViewGolden(t, "spec-example-v2.metadata.json")).(map[string]any)
	fn(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func firstVersion(m map[string]any) map[string]any {
	return m["versions"].([]any)[0].(map[string]any)
}

func TestParseViewMetadataErrors(t *testing.T) {
	cases := []struct {
		name  string
		data  func(t *testing.T) []byte
		field string
	}{
		{"not json", func(*testing.T) []byte { return []byte("{") }, "view metadata"},
		{"trailing data", func(*testing.T) []byte { return []byte(`{} {}`) }, "view metadata"},
		{"array", func(*testing.T) []byte { return []byte(`[]`) }, "view metadata"},
	}
	for _, key := range []string{"view-uuid", "format-version", "location", "schemas", "current-version-id", "versions", "version-log"} {
		cases = append(cases, struct {
			name  string
			data  func(t *testing.T) []byte
			field string
		}{"missing " + key, func(t *testing.T) []byte {
			return mutateGolden(t, func(m map[string]any) { delete(m, key) })
		}, key})
	}
	for _, key := range []string{"version-id", "timestamp-ms", "schema-id", "summary", "default-namespace", "representations"} {
		cases = append(cases, struct {
			name  string
			data  func(t *testing.T) []byte
			field string
		}{"version missing " + key, func(t *testing.T) []byte {
			return mutateGolden(t, func(m map[string]any) { delete(firstVersion(m), key) })
		}, "versions[0]." + key})
	}
	more := []struct {
		name  string
		fn    func(m map[string]any)
		field string
	}{
		{"format version 2", func(m map[string]any) { m["format-version"] = 2 }, "format-version"},
		{"unknown current version", func(m map[string]any) { m["current-version-id"] = 9 }, "current-version-id"},
		{"unknown schema", func(m map[string]any) { firstVersion(m)["schema-id"] = 7 }, "versions[0].schema-id"},
		{"version id overflow", func(m map[string]any) { firstVersion(m)["version-id"] = 1 << 40 }, "versions[0].version-id"},
		{"fractional id", func(m map[string]any) { m["current-version-id"] = 1.5 }, "view metadata"},
		{"duplicate version", func(m map[string]any) { m["versions"].([]any)[1].(map[string]any)["version-id"] = 1 }, "versions"},
		{"no representations", func(m map[string]any) { firstVersion(m)["representations"] = []any{} }, "versions[0].representations"},
		{"sql without dialect", func(m map[string]any) {
			delete(firstVersion(m)["representations"].([]any)[0].(map[string]any), "dialect")
		}, "versions[0].representations[0].dialect"},
		{"two sql of one dialect", func(m map[string]any) {
			v := firstVersion(m)
			r := v["representations"].([]any)[0]
			v["representations"] = []any{r, map[string]any{"type": "sql", "sql": "SELECT 1", "dialect": "SPARK"}}
		}, "versions[0].representations[1].dialect"},
		{"empty namespace level", func(m map[string]any) { firstVersion(m)["default-namespace"] = []any{""} }, "versions[0].default-namespace"},
		{"bad schema", func(m map[string]any) { m["schemas"] = []any{map[string]any{"type": "struct"}} }, "schemas[0]"},
		{"summary not strings", func(m map[string]any) { firstVersion(m)["summary"] = map[string]any{"a": 1} }, "versions[0]"},
	}
	for _, c := range more {
		cases = append(cases, struct {
			name  string
			data  func(t *testing.T) []byte
			field string
		}{c.name, func(t *testing.T) []byte { return mutateGolden(t, c.fn) }, c.field})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseViewMetadata(c.data(t))
			if !errors.Is(err, ErrInvalidViewMetadata) {
				t.Fatalf("err = %v, want ErrInvalidViewMetadata", err)
			}
			var fe *ViewFieldError
			if !errors.As(err, &fe) || fe.Field != c.field {
				t.Fatalf("err = %v (%#v), want field %q", err, fe, c.field)
			}
		})
	}
}

func TestParseViewMetadataKeepsUnknownRepresentation(t *testing.T) {
	data := mutateGolden(t, func(m map[string]any) {
		v := firstVersion(m)
		v["representations"] = append(v["representations"].([]any), map[string]any{"type": "substrait", "plan": "abc"})
	})
	m, err := ParseViewMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeViewMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(jsonValue(t, out), jsonValue(t, data)) {
		t.Fatalf("unknown representation lost:\n%s", out)
	}
}

func testViewSchema(t *testing.T, doc string) *Schema {
	t.Helper()
	s, err := NewSchema(0, []NestedField{{ID: 1, Name: "n", Type: LongType{}, Doc: doc}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func testViewVersion(sql string, ts int64) ViewVersion {
	return ViewVersion{
		TimestampMs:      ts,
		Summary:          map[string]string{ViewSummaryEngineName: "icesql"},
		Representations:  []ViewRepresentation{{Type: ViewRepresentationSQL, SQL: sql, Dialect: "spark"}},
		DefaultNamespace: []string{"db"},
	}
}

// TestNewViewMetadataRequiredFields checks a view we create against the
// View Spec's required fields.
func TestNewViewMetadataRequiredFields(t *testing.T) {
	m, err := NewViewMetadata("file:///w/db/v/", testViewSchema(t, ""), testViewVersion("SELECT 1 AS n", 1000), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeViewMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	doc := jsonValue(t, out).(map[string]any)
	for _, k := range []string{"view-uuid", "format-version", "location", "schemas", "current-version-id", "versions", "version-log"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("missing required field %q in %s", k, out)
		}
	}
	if _, ok := doc["properties"]; ok {
		t.Errorf("empty properties written: %s", out)
	}
	if doc["location"] != "file:///w/db/v" || doc["format-version"] != 1.0 || doc["current-version-id"] != 1.0 {
		t.Errorf("header = %s", out)
	}
	v := doc["versions"].([]any)[0].(map[string]any)
	for _, k := range []string{"version-id", "schema-id", "timestamp-ms", "summary", "representations", "default-namespace"} {
		if _, ok := v[k]; !ok {
			t.Errorf("missing required version field %q in %s", k, out)
		}
	}
	rep := v["representations"].([]any)[0].(map[string]any)
	if rep["type"] != "sql" || rep["dialect"] != "spark" || rep["sql"] != "SELECT 1 AS n" {
		t.Errorf("representation = %v", rep)
	}
	if _, err := ParseViewMetadata(out); err != nil {
		t.Fatal(err)
	}
}

func TestViewReplaceVersion(t *testing.T) {
	m1, err := NewViewMetadata("file:///w/db/v", testViewSchema(t, ""), testViewVersion("SELECT 1 AS n", 1000), nil)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := m1.ReplaceVersion(testViewSchema(t, ""), testViewVersion("SELECT 2 AS n", 2000), nil)
	if err != nil {
		t.Fatal(err)
	}
	m3, err := m2.ReplaceVersion(testViewSchema(t, "doc"), testViewVersion("SELECT 1 AS n", 3000), map[string]string{"comment": "c"})
	if err != nil {
		t.Fatal(err)
	}
	m4, err := m3.ReplaceVersion(testViewSchema(t, ""), testViewVersion("SELECT 1 AS n", 4000), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		m           *ViewMetadata
		current     int
		versions    int
		schemas     int
		log         int
		comment     string
		currentSQL  string
		currentSchm int
	}{
		{"create", m1, 1, 1, 1, 1, "", "SELECT 1 AS n", 0},
		{"new sql", m2, 2, 2, 1, 2, "", "SELECT 2 AS n", 0},
		{"new schema doc", m3, 3, 3, 2, 3, "c", "SELECT 1 AS n", 1},
		{"same as version 1 again", m4, 1, 3, 2, 4, "c", "SELECT 1 AS n", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, ok := c.m.CurrentVersion()
			if !ok || c.m.CurrentVersionID != c.current || len(c.m.Versions) != c.versions ||
				len(c.m.Schemas) != c.schemas || len(c.m.VersionLog) != c.log {
				t.Fatalf("current %d, %d versions, %d schemas, %d log entries", c.m.CurrentVersionID, len(c.m.Versions), len(c.m.Schemas), len(c.m.VersionLog))
			}
			if c.m.Properties["comment"] != c.comment || v.Representations[0].SQL != c.currentSQL || v.SchemaID != c.currentSchm {
				t.Fatalf("version %+v, properties %v", v, c.m.Properties)
			}
			if c.m.UUID != m1.UUID {
				t.Fatal("uuid changed")
			}
		})
	}
	if len(m1.Versions) != 1 || len(m1.VersionLog) != 1 {
		t.Fatal("ReplaceVersion changed its receiver")
	}
}

func TestViewVersionHistoryLimit(t *testing.T) {
	m, err := NewViewMetadata("file:///w/db/v", testViewSchema(t, ""), testViewVersion("SELECT 0 AS n", 1),
		map[string]string{ViewPropertyVersionHistory: "2"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		if m, err = m.ReplaceVersion(testViewSchema(t, ""), testViewVersion("SELECT "+string(rune('0'+i))+" AS n", int64(i+1)), nil); err != nil {
			t.Fatal(err)
		}
	}
	var ids []int
	for _, v := range m.Versions {
		ids = append(ids, v.VersionID)
	}
	if !reflect.DeepEqual(ids, []int{4, 5}) || m.CurrentVersionID != 5 {
		t.Fatalf("versions %v, current %d", ids, m.CurrentVersionID)
	}
	for _, e := range m.VersionLog {
		if e.VersionID < 4 {
			t.Fatalf("log keeps expired version: %v", m.VersionLog)
		}
	}
}

func TestEncodeViewMetadataValidates(t *testing.T) {
	m := &ViewMetadata{FormatVersion: 1, UUID: "u", Location: "l"}
	if _, err := EncodeViewMetadata(m); !errors.Is(err, ErrInvalidViewMetadata) {
		t.Fatalf("err = %v", err)
	}
}

func FuzzParseViewMetadata(f *testing.F) {
	for _, name := range []string{"spec-example-v2.metadata.json", "spec-materialized.metadata.json"} {
		f.Add(readViewGolden(f, name))
	}
	f.Add([]byte(`{"view-uuid":"u","format-version":1,"location":"l","schemas":[],"current-version-id":1,"versions":[],"version-log":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseViewMetadata(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidViewMetadata) {
				t.Fatalf("error does not wrap ErrInvalidViewMetadata: %v", err)
			}
			return
		}
		out, err := EncodeViewMetadata(m)
		if err != nil {
			t.Fatalf("parsed metadata does not encode: %v", err)
		}
		if _, err := ParseViewMetadata(out); err != nil {
			t.Fatalf("encoded metadata does not parse: %v\n%s", err, out)
		}
	})
}
