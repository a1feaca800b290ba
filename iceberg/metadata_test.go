package iceberg

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files under testdata")

func readMetadataFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "metadata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustParseFixture(t testing.TB, name string) *TableMetadata {
	t.Helper()
	m, err := ParseMetadata(readMetadataFixture(t, name))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return m
}

// encodeIndented is EncodeMetadata's output, indented.
func encodeIndented(t *testing.T, m *TableMetadata) []byte {
	t.Helper()
	out, err := EncodeMetadata(m, false)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, out, "", "  "); err != nil {
		t.Fatal(err)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// TestMetadataGolden parses Java-style fixtures, writes them back and
// compares with the golden output; the golden itself must round-trip.
func TestMetadataGolden(t *testing.T) {
	for _, name := range []string{"v1-legacy", "v2-java", "v3-rowlineage"} {
		t.Run(name, func(t *testing.T) {
			m := mustParseFixture(t, name+".metadata.json")
			out := encodeIndented(t, m) // goldens are indented to stay readable
			golden := filepath.Join("testdata", "metadata", name+".golden.json")
			if *updateGolden {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, want) {
				t.Fatalf("output differs from %s (run with -update after checking):\n%s", golden, out)
			}
			again, err := ParseMetadata(want)
			if err != nil {
				t.Fatal(err)
			}
			if out2 := encodeIndented(t, again); !bytes.Equal(out, out2) {
				t.Fatalf("golden does not round-trip:\n%s", out2)
			}
		})
	}
}

func TestMetadataV2Accessors(t *testing.T) {
	m := mustParseFixture(t, "v2-java.metadata.json")
	if m.FormatVersion() != 2 || m.LastSequenceNumber() != 2 || m.LastColumnID() != 8 {
		t.Fatalf("header: v%d seq %d last-col %d", m.FormatVersion(), m.LastSequenceNumber(), m.LastColumnID())
	}
	s := m.CurrentSchema()
	if s.ID != 1 || len(s.Fields()) != 5 || !slices.Equal(s.IdentifierFieldIDs, []int{1}) {
		t.Fatalf("current schema: %v", s)
	}
	if f, _ := s.FindFieldByName("amount"); f.Type != (DecimalType{Precision: 10, Scale: 2}) {
		t.Fatalf("amount type %v", f.Type)
	}
	if f, _ := s.FindFieldByName("tags.value.element"); f.Type != (FixedType{Length: 16}) || f.ID != 8 {
		t.Fatalf("nested element %v", f)
	}
	if spec := m.CurrentSpec(); spec.ID != 1 || len(spec.Fields) != 2 || spec.Fields[1].Transform.String() != "bucket[16]" {
		t.Fatalf("spec %+v", spec)
	}
	if o := m.SortOrder(); o.OrderID != 1 || len(o.Fields) != 1 {
		t.Fatalf("sort order %+v", o)
	}
	cur := m.CurrentSnapshot()
	if cur == nil || cur.SnapshotID != 3051729675574597004 || cur.Operation() != OpOverwrite {
		t.Fatalf("current snapshot %+v", cur)
	}
	tag, err := m.SnapshotByName("audit")
	if err != nil || tag.SnapshotID != 3055729675574597004 {
		t.Fatalf("audit tag: %v %v", tag, err)
	}
	if _, err := m.SnapshotByName("nope"); !errors.Is(err, ErrNoSuchRef) {
		t.Fatalf("missing ref error %v", err)
	}
	var chain []int64
	for s := range m.Ancestors(cur.SnapshotID) {
		chain = append(chain, s.SnapshotID)
	}
	if !slices.Equal(chain, []int64{3051729675574597004, 3055729675574597004}) {
		t.Fatalf("ancestors %v", chain)
	}
	asOf := []struct {
		ts   int64
		want int64
	}{{1714060700000, 3055729675574597004}, {1714060800499, 3055729675574597004}, {1714060800500, 3051729675574597004}}
	for _, c := range asOf {
		s, err := m.SnapshotAsOf(c.ts)
		if err != nil || s.SnapshotID != c.want {
			t.Fatalf("as of %d: %v %v", c.ts, s, err)
		}
	}
	if _, err := m.SnapshotAsOf(1); !errors.Is(err, ErrNoSuchSnapshot) {
		t.Fatalf("as of before history: %v", err)
	}
	if got := m.PropertyInt(PropMetadataPreviousVersionsMax, 100); got != 5 {
		t.Fatalf("int property %d", got)
	}
	if got := m.PropertyInt("owner", 9); got != 9 {
		t.Fatalf("non-int property should give default, got %d", got)
	}
	if !m.PropertyBool(PropGCEnabled, true) || m.Property("owner", "") != "alice" {
		t.Fatal("property getters")
	}
	if len(m.Statistics()) != 1 || m.Statistics()[0].BlobMetadata[0].Fields[0] != 1 {
		t.Fatalf("statistics %+v", m.Statistics())
	}
}

func TestMetadataV1(t *testing.T) {
	m := mustParseFixture(t, "v1-legacy.metadata.json")
	if m.CurrentSchemaID() != 0 || m.LastSequenceNumber() != 0 {
		t.Fatal("v1 schema id / sequence")
	}
	spec := m.CurrentSpec()
	if spec.ID != 0 || spec.Fields[0].FieldID != 1000 || m.LastPartitionID() != 1000 {
		t.Fatalf("v1 spec %+v last %d", spec, m.LastPartitionID())
	}
	if m.SortOrder().OrderID != 0 || len(m.SortOrders()) != 1 {
		t.Fatal("v1 sort order should default to unsorted")
	}
	main, ok := m.Ref(MainBranch)
	if !ok || main.SnapshotID != 3055729675574597004 || main.Type != BranchRef {
		t.Fatalf("main not synthesised: %+v", main)
	}
	if got := m.CurrentSnapshot().Manifests; len(got) != 2 {
		t.Fatalf("v1 manifests %v", got)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"schema":`, `"partition-spec":`, `"format-version":1`} {
		if !bytes.Contains(out, []byte(key)) {
			t.Errorf("v1 output lacks %s", key)
		}
	}
	if bytes.Contains(out, []byte(`"last-sequence-number"`)) {
		t.Error("v1 output has last-sequence-number")
	}
}

func TestMetadataV3(t *testing.T) {
	m := mustParseFixture(t, "v3-rowlineage.metadata.json")
	if m.NextRowID() != 125 {
		t.Fatalf("next-row-id %d", m.NextRowID())
	}
	f, _ := m.CurrentSchema().FindFieldByName("region")
	if f.InitialDefault != "emea" || f.WriteDefault != "emea" {
		t.Fatalf("defaults %#v %#v", f.InitialDefault, f.WriteDefault)
	}
	if f, _ := m.CurrentSchema().FindFieldByName("score"); f.WriteDefault != int32(7) || f.InitialDefault != nil {
		t.Fatalf("int default %#v", f.WriteDefault)
	}
	s := m.CurrentSnapshot()
	if *s.FirstRowID != 0 || *s.AddedRows != 125 {
		t.Fatal("row lineage fields")
	}
	if r := m.Refs()[MainBranch]; *r.MinSnapshotsToKeep != 3 || *r.MaxSnapshotAgeMs != 604800000 {
		t.Fatalf("main retention %+v", r)
	}
	out, _ := json.Marshal(m)
	if !bytes.Contains(out, []byte(`"encryption-keys":[]`)) {
		t.Fatalf("unknown key not preserved: %s", out)
	}
}

func TestMetadataGzip(t *testing.T) {
	m := mustParseFixture(t, "v2-java.metadata.json")
	gz, err := EncodeMetadata(m, true)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseMetadata(gz)
	if err != nil {
		t.Fatal(err)
	}
	if back.TableUUID() != m.TableUUID() || len(back.Snapshots()) != 2 {
		t.Fatal("gzip round trip lost data")
	}
	if _, err := ParseMetadata(gz[:len(gz)/2]); !errors.Is(err, ErrInvalidMetadata) {
		t.Fatalf("truncated gzip: %v", err)
	}
	if !IsGzipMetadataPath("a/00001-x.gz.metadata.json") || IsGzipMetadataPath("a/00001-x.metadata.json") {
		t.Fatal("IsGzipMetadataPath")
	}
}

// editFixture parses the v2 fixture into a generic map, applies edit, and
// returns the JSON.
func editFixture(t *testing.T, edit func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(readMetadataFixture(t, "v2-java.metadata.json"), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseMetadataErrors(t *testing.T) {
	good := readMetadataFixture(t, "v2-java.metadata.json")
	snapshots := func(m map[string]any) []any { return m["snapshots"].([]any) }
	cases := []struct {
		name string
		data []byte
		also error
	}{
		{"empty", nil, nil},
		{"truncated", good[:len(good)/2], nil},
		{"array", []byte(`[]`), nil},
		{"null", []byte(`null`), nil},
		{"string version", editFixture(t, func(m map[string]any) { m["format-version"] = "2" }), nil},
		{"future version", editFixture(t, func(m map[string]any) { m["format-version"] = 4 }), ErrUnsupported},
		{"no uuid", editFixture(t, func(m map[string]any) { delete(m, "table-uuid") }), nil},
		{"bad uuid", editFixture(t, func(m map[string]any) { m["table-uuid"] = "nope" }), nil},
		{"no location", editFixture(t, func(m map[string]any) { delete(m, "location") }), nil},
		{"no schemas", editFixture(t, func(m map[string]any) { delete(m, "schemas") }), nil},
		{"unknown current schema", editFixture(t, func(m map[string]any) { m["current-schema-id"] = 7 }), nil},
		{"duplicate schema id", editFixture(t, func(m map[string]any) {
			s := m["schemas"].([]any)
			s[0].(map[string]any)["schema-id"] = 1
		}), nil},
		{"bad type", editFixture(t, func(m map[string]any) {
			f := m["schemas"].([]any)[0].(map[string]any)["fields"].([]any)
			f[0].(map[string]any)["type"] = "longish"
		}), ErrInvalidSchema},
		{"geometry with two arguments", editFixture(t, func(m map[string]any) {
			f := m["schemas"].([]any)[0].(map[string]any)["fields"].([]any)
			f[0].(map[string]any)["type"] = "geometry(a, b)"
		}), ErrInvalidSchema},
		{"last-column-id too low", editFixture(t, func(m map[string]any) { m["last-column-id"] = 3 }), nil},
		{"unknown default spec", editFixture(t, func(m map[string]any) { m["default-spec-id"] = 9 }), nil},
		{"last-partition-id too low", editFixture(t, func(m map[string]any) { m["last-partition-id"] = 1000 }), nil},
		{"unknown default sort order", editFixture(t, func(m map[string]any) { m["default-sort-order-id"] = 9 }), nil},
		{"missing current snapshot", editFixture(t, func(m map[string]any) {
			m["current-snapshot-id"] = 1
			delete(m, "refs")
		}), nil},
		{"main mismatch", editFixture(t, func(m map[string]any) { m["current-snapshot-id"] = 3055729675574597004 }), nil},
		{"bad ref type", editFixture(t, func(m map[string]any) {
			m["refs"].(map[string]any)["audit"].(map[string]any)["type"] = "label"
		}), nil},
		{"ref to missing snapshot", editFixture(t, func(m map[string]any) {
			m["refs"].(map[string]any)["audit"].(map[string]any)["snapshot-id"] = 5
		}), nil},
		{"duplicate snapshot", editFixture(t, func(m map[string]any) {
			s := snapshots(m)
			s[0].(map[string]any)["snapshot-id"] = 3051729675574597004
		}), nil},
		{"no manifest list", editFixture(t, func(m map[string]any) {
			delete(snapshots(m)[0].(map[string]any), "manifest-list")
		}), nil},
		{"summary without operation", editFixture(t, func(m map[string]any) {
			snapshots(m)[0].(map[string]any)["summary"] = map[string]any{"x": "1"}
		}), nil},
		{"sequence above last", editFixture(t, func(m map[string]any) { m["last-sequence-number"] = 1 }), nil},
		{"bad snapshot log", editFixture(t, func(m map[string]any) { m["snapshot-log"] = []any{map[string]any{"x": 1}} }), nil},
		{"null sort order", editFixture(t, func(m map[string]any) { m["sort-orders"] = []any{nil} }), nil},
		{"null spec", editFixture(t, func(m map[string]any) { m["partition-specs"] = []any{nil} }), nil},
		{"properties not strings", editFixture(t, func(m map[string]any) { m["properties"] = map[string]any{"a": 1} }), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseMetadata(c.data)
			if !errors.Is(err, ErrInvalidMetadata) {
				t.Fatalf("want ErrInvalidMetadata, got %v", err)
			}
			if c.also != nil && !errors.Is(err, c.also) {
				t.Fatalf("want also %v, got %v", c.also, err)
			}
		})
	}
}

func TestMetadataFileNames(t *testing.T) {
	name := NewMetadataFileName(7)
	if !strings.HasPrefix(name, "00007-") || !strings.HasSuffix(name, ".metadata.json") || len(name) != len("00007-")+36+len(".metadata.json") {
		t.Fatalf("name %q", name)
	}
	cases := map[string]int{
		"s3://b/t/metadata/" + name:               7,
		"00123-abc.metadata.json":                 123,
		"/x/v3.metadata.json":                     -1,
		"/x/abc-00001.metadata.json":              -1,
		"/x/-1.metadata.json":                     -1,
		"/x/99999999999999999999-a.metadata.json": -1,
	}
	for path, want := range cases {
		if got := ParseMetadataVersion(path); got != want {
			t.Errorf("ParseMetadataVersion(%q) = %d, want %d", path, got, want)
		}
	}
}

func FuzzParseMetadata(f *testing.F) {
	for _, name := range []string{"v1-legacy", "v2-java", "v3-rowlineage"} {
		f.Add(readMetadataFixture(f, name+".metadata.json"))
	}
	f.Add([]byte(`{"format-version":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMetadata(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidMetadata) {
				t.Fatalf("error does not wrap ErrInvalidMetadata: %v", err)
			}
			return
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("valid metadata does not marshal: %v", err)
		}
		if _, err := ParseMetadata(out); err != nil {
			t.Fatalf("marshalled metadata does not parse: %v\n%s", err, out)
		}
	})
}
