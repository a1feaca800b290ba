package iceberg

import (
	"errors"
	"strings"
	"testing"
)

func TestSetPropertiesValidatesNumbersAndBooleans(t *testing.T) {
	tests := []struct {
		key, value string
		ok         bool
	}{
		{PropCommitNumRetries, "10", true},
		{PropCommitNumRetries, "0", true},
		{PropCommitNumRetries, "abc", false},
		{PropCommitNumRetries, "-1", false},
		{PropCommitNumRetries, " 5", false},
		{PropWriteTargetFileSizeBytes, "0", false},
		{PropWriteTargetFileSizeBytes, "1048576", true},
		{PropGCEnabled, "FALSE", true},
		{PropGCEnabled, "no", false},
		{PropManifestMergeEnabled, "", false},
		{"owner", "anything at all", true},
		{PropDeleteMode, "merge-on-read", true},
	}
	for _, tc := range tests {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			schema, err := NewSchema(0, []NestedField{{ID: 1, Name: "x", Type: LongType{}}})
			if err != nil {
				t.Fatal(err)
			}
			b, err := NewTableBuilder(schema, nil, nil, "file:///lake/t", nil)
			if err != nil {
				t.Fatal(err)
			}
			err = b.SetProperties(map[string]string{tc.key: tc.value})
			if tc.ok {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			var pe *PropertyError
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidMetadata) || pe.Key != tc.key {
				t.Fatalf("err = %v, want *PropertyError for %s", err, tc.key)
			}
			if !strings.Contains(err.Error(), tc.key) {
				t.Fatalf("message %q does not name the property", err)
			}
		})
	}
}
