package table_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/hamba/avro/v2/ocf"
	"github.com/icesql/icesql/iceberg/fileio"
)

// avroFile is an Avro container file as a foreign reader sees it: the
// header's key-value metadata, the writer schema as JSON, and the records
// decoded generically (unions unwrapped, absent values nil).
type avroFile struct {
	size    int64
	meta    map[string]string
	schema  map[string]any
	records []map[string]any
}

func readAvro(t testing.TB, fio fileio.FileIO, path string) avroFile {
	t.Helper()
	f, err := fio.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := ocf.NewDecoder(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := avroFile{size: int64(len(raw)), meta: map[string]string{}}
	for k, v := range dec.Metadata() {
		out.meta[k] = string(v)
	}
	if err := json.Unmarshal([]byte(out.meta["avro.schema"]), &out.schema); err != nil {
		t.Fatalf("%s: avro.schema: %v", path, err)
	}
	for dec.HasNext() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out.records = append(out.records, unwrapUnions(m).(map[string]any))
	}
	if err := dec.Error(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// unwrapUnions removes the {"<branch type>": value} wrappers the generic
// decoder puts around non-null union values.
func unwrapUnions(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			for k, inner := range x {
				switch k {
				case "array", "map", "long", "int", "string", "bytes", "boolean", "float", "double":
					return unwrapUnions(inner)
				}
			}
		}
		for k, inner := range x {
			x[k] = unwrapUnions(inner)
		}
		return x
	case []any:
		for i := range x {
			x[i] = unwrapUnions(x[i])
		}
	}
	return v
}

// avroField is one field of a record schema, found by name.
func avroField(t testing.TB, record map[string]any, name string) map[string]any {
	t.Helper()
	fields, _ := record["fields"].([]any)
	for _, f := range fields {
		if m, ok := f.(map[string]any); ok && m["name"] == name {
			return m
		}
	}
	t.Fatalf("record %v has no field %q", record["name"], name)
	return nil
}

// fieldID returns a field's "field-id" attribute, -1 when absent.
func fieldID(f map[string]any) int {
	if id, ok := f["field-id"].(float64); ok {
		return int(id)
	}
	return -1
}

// optionalInner checks that an optional field is the union ["null", T]
// with default null and returns T.
func optionalInner(t testing.TB, f map[string]any) any {
	t.Helper()
	u, ok := f["type"].([]any)
	if !ok || len(u) != 2 || u[0] != "null" {
		t.Errorf("field %v: type %v, want the union [\"null\", T]", f["name"], f["type"])
		return nil
	}
	if d, has := f["default"]; !has || d != nil {
		t.Errorf("field %v: optional field without default null", f["name"])
	}
	return u[1]
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}
