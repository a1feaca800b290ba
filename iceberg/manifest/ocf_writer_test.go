package manifest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/icesql/icesql/iceberg"
)

// A manifest large enough for several blocks reads back, in order, through
// both our reader and a generic Avro decoder: block framing (counts,
// sizes, sync markers) and the pooled deflate compressors are right.
func TestManifestSpanningBlocks(t *testing.T) {
	schema, spec := allTypesSchema(t)
	const n = 1500 // about 150 bytes per entry: several 64 KiB blocks
	var entries []iceberg.ManifestEntry
	for i := range n {
		df := fullDataFile(fmt.Sprintf("data/%05d.parquet", i), spec.ID, allTypesValues(int64(i)))
		entries = append(entries, iceberg.ManifestEntry{Status: iceberg.StatusAdded, DataFile: df})
	}
	data, mf := writeManifest(t, 2, spec, schema, iceberg.ManifestContentData, 1, entries)
	if mf.AddedFilesCount != n {
		t.Fatalf("added files %d, want %d", mf.AddedFilesCount, n)
	}
	got, err := ReadManifestEntries(bytes.NewReader(data), mf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("read %d entries, want %d", len(got), n)
	}
	for i, e := range got {
		if want := fmt.Sprintf("data/%05d.parquet", i); e.DataFile.FilePath != want {
			t.Fatalf("entry %d is %s, want %s", i, e.DataFile.FilePath, want)
		}
	}
	dec, err := ocf.NewDecoder(bytes.NewReader(data), ocf.WithDecoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for dec.HasNext() {
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("generic decode of record %d: %v", count, err)
		}
		count++
	}
	if dec.Error() != nil || count != n {
		t.Fatalf("generic decoder read %d records (%v), want %d", count, dec.Error(), n)
	}
	if blocks := bytes.Count(data, data[len(data)-16:]); blocks < 3 {
		t.Errorf("sync marker appears %d times; want a header and at least two blocks", blocks)
	}
}
