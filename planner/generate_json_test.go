package planner

import (
	"encoding/json"
	"testing"
)

func TestJSONTupleFields(t *testing.T) {
	tests := []struct {
		name, doc, key string
		present        bool
		want           string
		ok             bool
	}{
		{"string unquoted", `{"a": "x\"y"}`, "a", true, `x"y`, true},
		{"number as written", `{"a": 1.50}`, "a", true, "1.50", true},
		{"object compacted", `{"a": {"b": [1, 2]}}`, "a", true, `{"b":[1,2]}`, true},
		{"boolean", `{"a": true}`, "a", true, "true", true},
		{"json null", `{"a": null}`, "a", true, "", false},
		{"missing key", `{"a": 1}`, "b", true, "", false},
		{"last duplicate wins", `{"a": 1, "a": 2}`, "a", true, "2", true},
		{"keys are case-sensitive", `{"A": 1}`, "a", true, "", false},
		{"malformed", `{"a": 1`, "a", true, "", false},
		{"not an object", `[1]`, "a", true, "", false},
		{"NULL document", "", "a", false, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := jsonObject(tc.present, tc.doc).field(tc.key)
			if got != tc.want || ok != tc.ok {
				t.Errorf("field(%q) of %s = %q, %v; want %q, %v", tc.key, tc.doc, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// FuzzJSONTuple checks that any document parses without panicking and
// that every value found is what json_tuple promises: a string's text
// or valid compact JSON.
func FuzzJSONTuple(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, `{"a": "x", "b": [1, {"c": null}]}`, `{"a": 1`, `"a"`, `null`, `{"\u00e9": 2}`} {
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, doc, key string) {
		obj := jsonObject(true, doc)
		got, ok := obj.field(key)
		if !ok {
			return
		}
		raw := obj[key]
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if got != s {
				t.Fatalf("string value %s rendered %q", raw, got)
			}
			return
		}
		if !json.Valid([]byte(got)) {
			t.Fatalf("value %s rendered as invalid JSON %q", raw, got)
		}
	})
}
