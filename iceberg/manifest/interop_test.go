package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/icesql/icesql/iceberg"
)

func TestManifestHeaderCarriesIcebergAttributes(t *testing.T) {
	schema, spec := allTypesSchema(t)
	data, _ := writeManifest(t, 2, spec, schema, iceberg.ManifestContentData, 1, nil)
	dec, err := ocf.NewDecoder(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	meta := dec.Metadata()
	header := string(meta["avro.schema"])
	for _, want := range []string{`"field-id":102`, `"field-id":1000`, `"field-id":1014`, `"element-id":133`,
		`"element-id":136`, `"name":"k117_v118"`, `"field-id":117`, `"field-id":118`, `"logicalType":"map"`,
		`"logicalType":"date"`, `"logicalType":"time-micros"`, `"logicalType":"timestamp-micros","adjust-to-utc":false`,
		`"adjust-to-utc":true`, `"logicalType":"decimal","precision":10,"scale":2`, `"type":"fixed","name":"decimal_10_2","size":5`,
		`"size":16,"logicalType":"decimal","precision":38`, `"logicalType":"uuid"`, `"name":"r2"`, `"name":"r102"`} {
		if !strings.Contains(header, want) {
			t.Errorf("avro.schema lacks %s", want)
		}
	}
	for k, v := range map[string]string{"schema-id": "7", "partition-spec-id": "3", "format-version": "2",
		"content": "data", "avro.codec": "deflate"} {
		if string(meta[k]) != v {
			t.Errorf("metadata %s = %q, want %q", k, meta[k], v)
		}
	}
	var specFields []map[string]any
	if err := json.Unmarshal(meta["partition-spec"], &specFields); err != nil || len(specFields) != len(spec.Fields) {
		t.Fatalf("partition-spec %s: %v", meta["partition-spec"], err)
	}
	if specFields[0]["transform"] != "identity" || specFields[0]["field-id"] != float64(1000) {
		t.Errorf("partition-spec field %v", specFields[0])
	}
	parsed, err := iceberg.ParseSchemaJSON(meta["schema"])
	if err != nil || !parsed.Equals(schema) {
		t.Errorf("schema metadata %s does not parse back: %v", meta["schema"], err)
	}
}

// A generic Avro reader (hamba, no Iceberg knowledge) must decode our files
// and see field ids on the schema it parsed from the header.
func TestGenericAvroDecodeSeesFieldIDs(t *testing.T) {
	schema, spec := allTypesSchema(t)
	df := fullDataFile("a.parquet", spec.ID, allTypesValues(1))
	data, _ := writeManifest(t, 2, spec, schema, iceberg.ManifestContentData, 1,
		[]iceberg.ManifestEntry{{Status: iceberg.StatusAdded, DataFile: df}})
	dec, err := ocf.NewDecoder(bytes.NewReader(data), ocf.WithDecoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		t.Fatal(err)
	}
	rec := dec.Schema().(*avro.RecordSchema)
	ids := map[string]int{}
	for _, f := range rec.Fields() {
		id, ok := fieldID(f)
		if !ok {
			t.Errorf("field %s has no field-id", f.Name())
		}
		ids[f.Name()] = id
	}
	if ids["status"] != 0 || ids["data_file"] != 2 || ids["file_sequence_number"] != 4 {
		t.Errorf("field ids %v", ids)
	}
	if !dec.HasNext() {
		t.Fatalf("no record: %v", dec.Error())
	}
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	file := v["data_file"].(map[string]any)
	if file["file_path"] != "a.parquet" || file["record_count"] != int64(100) {
		t.Errorf("generic decode %v", file)
	}
}

// javaStyleListSchema uses the names Java wrote for 504-506 before 1.4
// (icesql writes the spec's), other names for the rest, a different field order and an extra unknown field: a reader
// bound by id must not care.
const javaStyleListSchema = `{"type":"record","name":"manifest_file","fields":[
 {"name":"path_renamed","type":"string","field-id":500},
 {"name":"extra","type":{"type":"map","values":"string"},"field-id":9999},
 {"name":"manifest_length","type":"long","field-id":501},
 {"name":"added_snapshot_id","type":"long","field-id":503},
 {"name":"partition_spec_id","type":"int","field-id":502},
 {"name":"content","type":"int","field-id":517},
 {"name":"sequence_number","type":"long","field-id":515},
 {"name":"min_sequence_number","type":"long","field-id":516},
 {"name":"added_data_files_count","type":"int","field-id":504},
 {"name":"existing_data_files_count","type":"int","field-id":505},
 {"name":"deleted_data_files_count","type":"int","field-id":506},
 {"name":"added_rows_count","type":"long","field-id":512},
 {"name":"existing_rows_count","type":"long","field-id":513},
 {"name":"deleted_rows_count","type":"long","field-id":514},
 {"name":"partitions","type":["null",{"type":"array","element-id":508,"items":{"type":"record","name":"r508","fields":[
   {"name":"contains_null","type":"boolean","field-id":509},
   {"name":"lower_bound","type":["null","bytes"],"default":null,"field-id":510}]}}],"default":null,"field-id":507}]}`

func TestReadManifestListWithOtherFieldNames(t *testing.T) {
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(javaStyleListSchema, &buf, ocf.WithCodec(ocf.Snappy),
		ocf.WithSchemaMarshaler(ocf.FullSchemaMarshaler), ocf.WithEncoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		t.Fatal(err)
	}
	rec := map[string]any{"path_renamed": "m.avro", "extra": map[string]any{"a": "b"}, "manifest_length": int64(5),
		"added_snapshot_id": int64(8), "partition_spec_id": 2, "content": 1, "sequence_number": int64(4),
		"min_sequence_number": int64(3), "added_data_files_count": 6, "existing_data_files_count": 7, "deleted_data_files_count": 8,
		"added_rows_count": int64(60), "existing_rows_count": int64(70), "deleted_rows_count": int64(80),
		"partitions": []any{map[string]any{"contains_null": true, "lower_bound": []byte{7}}}}
	if err := enc.Encode(rec); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifestList(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := iceberg.ManifestFile{Path: "m.avro", Length: 5, SpecID: 2, Content: iceberg.ManifestContentDeletes,
		SequenceNumber: 4, MinSequenceNumber: 3, AddedSnapshotID: 8, AddedFilesCount: 6, ExistingFilesCount: 7,
		DeletedFilesCount: 8, AddedRowsCount: 60, ExistingRowsCount: 70, DeletedRowsCount: 80,
		Partitions: []iceberg.FieldSummary{{ContainsNull: true, LowerBound: []byte{7}}}}
	if len(got) != 1 {
		t.Fatalf("read %d manifests", len(got))
	}
	if d := diffFields(got[0], want); len(d) > 0 {
		t.Fatalf("differs: %v", d)
	}
}

func TestCorruptInputIsInvalidManifest(t *testing.T) {
	schema, spec := allTypesSchema(t)
	df := fullDataFile("a.parquet", spec.ID, allTypesValues(1))
	data, mf := writeManifest(t, 2, spec, schema, iceberg.ManifestContentData, 1,
		[]iceberg.ManifestEntry{{Status: iceberg.StatusAdded, DataFile: df}})
	var list bytes.Buffer
	if _, err := WriteManifestList(&list, 2, 1, nil, 1, nil, []iceberg.ManifestFile{mf}); err != nil {
		t.Fatal(err)
	}
	flip := func(b []byte, i int) []byte { c := bytes.Clone(b); c[i] ^= 0xff; return c }
	cases := map[string][]byte{
		"empty":          nil,
		"bad magic":      flip(data, 0),
		"truncated":      data[:len(data)-20],
		"header only":    data[:len(data)/3],
		"last byte":      flip(data, len(data)-1),
		"block body":     flip(data, len(data)-30),
		"list truncated": list.Bytes()[:list.Len()-5],
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ReadManifestEntries(bytes.NewReader(in), mf, WithPath("s3://t/m.avro"))
			var cf *iceberg.CorruptFileError
			if !errors.Is(err, iceberg.ErrInvalidManifest) || !errors.As(err, &cf) || cf.Path != "s3://t/m.avro" {
				t.Errorf("manifest read: got %v", err)
			}
			if _, err := ReadManifestList(bytes.NewReader(in)); !errors.Is(err, iceberg.ErrInvalidManifest) {
				t.Errorf("list read: got %v", err)
			}
		})
	}
}
