package iceberg

import "testing"

// Parsing arbitrary JSON as a nanosecond timestamp never panics, and what
// parses prints back to text that parses to the same instant.
func FuzzNanoTimestampJSON(f *testing.F) {
	f.Add(`"2026-01-01T00:00:00.123456789"`, false)
	f.Add(`"1677-09-21T00:12:43.145224192+00:00"`, true)
	f.Add(`"2262-04-11T23:47:16.854775807Z"`, true)
	f.Add(`"+10000-01-01T00:00"`, false)
	f.Fuzz(func(t *testing.T, text string, zoned bool) {
		var typ Type = TimestampNsType{}
		if zoned {
			typ = TimestampTzNsType{}
		}
		v, err := ValueFromJSON(typ, []byte(text))
		if err != nil || v == nil {
			return
		}
		out, err := ValueToJSON(typ, v)
		if err != nil {
			t.Fatalf("%s: %v does not print: %v", text, v, err)
		}
		back, err := ValueFromJSON(typ, out)
		if err != nil || back != v {
			t.Fatalf("%s -> %v -> %s -> %v, %v", text, v, out, back, err)
		}
	})
}
