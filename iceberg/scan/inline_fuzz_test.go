package scan

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// FuzzInlineManifest: any bytes as an inline manifest build an entry or
// fail with a CorruptFileError naming the file, never panic.
func FuzzInlineManifest(f *testing.F) {
	_, good := writeV1Manifest(f, f.TempDir(), "m.avro", inlineSpec,
		entry(f, iceberg.StatusAdded, "a.parquet", "x", 10), entry(f, iceberg.StatusDeleted, "b.parquet", "y", 2))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(bytes.Replace(good, []byte("partition-spec-id"), []byte("partition-spec-xx"), 1))
	f.Add([]byte("Obj\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		open := func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		mf, err := InlineManifest(open, "m.avro", 1)
		if err != nil {
			var cf *iceberg.CorruptFileError
			if !errors.As(err, &cf) || cf.Path != "m.avro" {
				t.Fatalf("err = %v, want a CorruptFileError", err)
			}
			return
		}
		if mf.Length != int64(len(data)) || mf.AddedFilesCount < 0 || mf.DeletedFilesCount < 0 {
			t.Fatalf("manifest %+v of %d bytes", mf, len(data))
		}
	})
}
