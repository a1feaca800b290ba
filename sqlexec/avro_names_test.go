package sqlexec_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/hamba/avro/v2/ocf"
)

// specAvroNames are the spec's names of the fields of manifest lists
// (manifest_file), manifests (manifest_entry, data_file) and their maps'
// and lists' parts, by field id.
var specAvroNames = map[int]string{
	500: "manifest_path", 501: "manifest_length", 502: "partition_spec_id", 517: "content",
	515: "sequence_number", 516: "min_sequence_number", 503: "added_snapshot_id",
	504: "added_files_count", 505: "existing_files_count", 506: "deleted_files_count",
	512: "added_rows_count", 513: "existing_rows_count", 514: "deleted_rows_count",
	507: "partitions", 509: "contains_null", 518: "contains_nan", 510: "lower_bound", 511: "upper_bound",
	519: "key_metadata", 520: "first_row_id",
	0: "status", 1: "snapshot_id", 3: "sequence_number", 4: "file_sequence_number", 2: "data_file",
	134: "content", 100: "file_path", 101: "file_format", 102: "partition", 103: "record_count",
	104: "file_size_in_bytes", 105: "block_size_in_bytes", 108: "column_sizes", 109: "value_counts",
	110: "null_value_counts", 137: "nan_value_counts", 125: "lower_bounds", 128: "upper_bounds",
	131: "key_metadata", 132: "split_offsets", 135: "equality_ids", 140: "sort_order_id",
	142: "first_row_id", 143: "referenced_data_file", 144: "content_offset", 145: "content_size_in_bytes",
	117: "key", 118: "value", 119: "key", 120: "value", 121: "key", 122: "value", 138: "key", 139: "value",
	126: "key", 127: "value", 129: "key", 130: "value",
}

// checkAvroNames walks an Avro schema and reports every field whose name
// is not the spec's for its field id (partition tuples, named after the
// partition fields, are skipped).
func checkAvroNames(t *testing.T, file string, schema any) int {
	t.Helper()
	checked := 0
	switch s := schema.(type) {
	case []any:
		for _, b := range s {
			checked += checkAvroNames(t, file, b)
		}
	case map[string]any:
		if fields, ok := s["fields"].([]any); ok {
			for _, f := range fields {
				f := f.(map[string]any)
				id, ok := f["field-id"].(float64)
				if !ok {
					t.Errorf("%s: field %v has no field-id", file, f["name"])
					continue
				}
				want, known := specAvroNames[int(id)]
				if !known {
					t.Errorf("%s: field %v has id %v, not in the spec", file, f["name"], id)
				} else if f["name"] != want {
					t.Errorf("%s: field id %v is named %v, the spec says %s", file, id, f["name"], want)
				}
				checked++
				if int(id) != 102 {
					checked += checkAvroNames(t, file, f["type"])
				}
			}
		}
		if items, ok := s["items"]; ok {
			checked += checkAvroNames(t, file, items)
		}
	}
	return checked
}

// TestAvroFieldNamesAreTheSpecs reads the Avro schema of every manifest
// list and manifest (data and delete manifests) of tables of each format
// version and checks every field name against the spec's tables.
func TestAvroFieldNamesAreTheSpecs(t *testing.T) {
	db, _ := openWarehouse(t)
	for _, v := range []int{1, 2, 3} {
		name := fmt.Sprintf("ns.v%d", v)
		mustExec(t, db, fmt.Sprintf("CREATE TABLE %s (id BIGINT, s STRING) PARTITIONED BY (s) TBLPROPERTIES ('format-version'='%d', 'write.delete.mode'='merge-on-read')", name, v))
		mustExec(t, db, "INSERT INTO "+name+" VALUES (1, 'a'), (2, 'a'), (3, 'b')")
		if v > 1 {
			mustExec(t, db, "DELETE FROM "+name+" WHERE id = 1")
		}
		files := append(queryRows(t, db, "SELECT manifest_list FROM "+name+".snapshots"),
			queryRows(t, db, "SELECT path FROM "+name+".all_manifests")...)
		for _, loc := range files {
			f, err := os.Open(literalPath(t, loc))
			if err != nil {
				t.Fatal(err)
			}
			dec, err := ocf.NewDecoder(f)
			if err != nil {
				f.Close()
				t.Fatalf("%s: %v", loc, err)
			}
			var schema any
			if err := json.Unmarshal(dec.Metadata()["avro.schema"], &schema); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if checkAvroNames(t, loc, schema) < 10 {
				t.Errorf("%s: too few fields checked", loc)
			}
		}
	}
}
