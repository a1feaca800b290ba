package iceberg

import (
	"encoding/json"
	"testing"
)

// The hand-written encodings of metadata's common values produce what
// encoding/json produces for them, escapes included.
func TestOrderedObjectFastPathsMatchEncodingJSON(t *testing.T) {
	values := map[string]any{
		"string":       "plain",
		"escaped":      "a\"b\\c<d>&é\u2028\x01",
		"int":          -42,
		"int64":        int64(1) << 62,
		"snapshot-log": []SnapshotLogEntry{{TimestampMs: 1, SnapshotID: -2}, {TimestampMs: 3, SnapshotID: 4}},
		"empty-log":    []SnapshotLogEntry{},
		"metadata-log": []MetadataLogEntry{{TimestampMs: 5, MetadataFile: "file:///w/t/metadata/00001-x.metadata.json"},
			{TimestampMs: 6, MetadataFile: "/dir with space/ünïcode/\"q\".json"}},
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			o := &orderedObject{}
			o.add(name, v)
			got, err := o.bytes()
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(map[string]any{name: v})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// Snapshot-log entries encoded one by one for the cache read as
// encoding/json writes them.
func TestSnapshotLogEntryEncoding(t *testing.T) {
	for _, e := range []SnapshotLogEntry{{}, {TimestampMs: 1700000000000, SnapshotID: -9223372036854775808}, {TimestampMs: -1, SnapshotID: 42}} {
		got, err := marshalSnapshotLogEntry(e)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
