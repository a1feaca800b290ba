package planner

import (
	"bytes"
	"encoding/json"
)

// jsonFields is a parsed top-level JSON object: each key's raw value
// (the last one when a key repeats, as Spark's json_tuple).
type jsonFields map[string]json.RawMessage

// jsonObject parses doc; it returns nil for a NULL, malformed or
// non-object document.
func jsonObject(present bool, doc string) jsonFields {
	if !present {
		return nil
	}
	var obj jsonFields
	if err := json.Unmarshal([]byte(doc), &obj); err != nil {
		return nil
	}
	return obj
}

// field renders key's value as json_tuple does: a string unquoted, a
// JSON null as absent, anything else as compact JSON text.
func (o jsonFields) field(key string) (string, bool) {
	raw, ok := o[key]
	if !ok {
		return "", false
	}
	switch {
	case bytes.Equal(raw, []byte("null")):
		return "", false
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false
		}
		return s, true
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", false
	}
	return b.String(), true
}
