package sqlexec_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/variant"
)

// writeShreddedVariantFile writes rows (id, v) with v shredded by typed
// (arrow-go's shredding writer), docs[i] the JSON of row i's variant
// ("" for NULL) and ids[i] its id.
func writeShreddedVariantFile(t *testing.T, path string, typed arrow.DataType, ids []int64, docs []string) {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "v", Type: extensions.NewShreddedVariantType(typed), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i, doc := range docs {
		b.Field(0).(*array.Int64Builder).Append(ids[i])
		vb := b.Field(1).(*extensions.VariantBuilder)
		if doc == "" {
			vb.AppendNull()
			continue
		}
		v, err := variant.ParseJSON(doc, false)
		if err != nil {
			t.Fatal(err)
		}
		vb.Append(v)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("typed_value")) {
		t.Fatal("arrow-go wrote no typed_value column")
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAddFilesShreddedVariant imports Parquet files whose variant column
// is shredded (two files, two shredding schemas: an object with typed
// fields, and int64) into a v3 table with CALL system.add_files, and
// reads them through database/sql exactly as the same documents inserted
// with parse_json (stored unshredded): to_json, variant_get,
// is_variant_null, filters on another column, and a projection without
// the variant.
func TestAddFilesShreddedVariant(t *testing.T) {
	db, _ := openWarehouse(t)
	src := t.TempDir()
	obj := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "d", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.FixedWidthTypes.Boolean})})
	objDocs := []string{`{"a": 1, "b": "x", "d": {"x": true}}`, `{"a": "one", "z": [1, {"q": null}]}`,
		`{"b": null, "d": {"x": 3, "y": 4}}`, `[1, 2]`, `"text"`, `null`, "", `{}`}
	intDocs := []string{`34`, `null`, `"n/a"`, "", `{"a": 100}`, `2.5`}
	var ids []int64
	for i := range len(objDocs) + len(intDocs) {
		ids = append(ids, int64(i+1))
	}
	writeShreddedVariantFile(t, filepath.Join(src, "obj.parquet"), obj, ids[:len(objDocs)], objDocs)
	writeShreddedVariantFile(t, filepath.Join(src, "int.parquet"), arrow.PrimitiveTypes.Int64, ids[len(objDocs):], intDocs)

	mustExec(t, db, "CREATE TABLE ns.shredded (id BIGINT, v VARIANT) TBLPROPERTIES ('format-version' = '3')")
	mustExec(t, db, "CREATE TABLE ns.plain (id BIGINT, v VARIANT) TBLPROPERTIES ('format-version' = '3')")
	row := callRow(t, db, "CALL system.add_files(table => 'ns.shredded', source_table => ?)", "`parquet`.`"+src+"`")
	if row["added_files_count"] != int64(2) {
		t.Fatalf("add_files = %v", row)
	}
	var values []string
	for i, doc := range append(slices.Clone(objDocs), intDocs...) {
		v := "NULL"
		if doc != "" {
			v = "parse_json('" + strings.ReplaceAll(doc, "'", "''") + "')"
		}
		values = append(values, fmt.Sprintf("(%d, %s)", ids[i], v))
	}
	mustExec(t, db, "INSERT INTO ns.plain VALUES "+strings.Join(values, ", "))

	for _, q := range []string{
		"SELECT id, to_json(v) FROM %s ORDER BY id",
		"SELECT id, v FROM %s ORDER BY id",
		"SELECT id, try_variant_get(v, '$.a', 'bigint'), try_variant_get(v, '$.a', 'string'), try_variant_get(v, '$.d.x', 'string') FROM %s ORDER BY id",
		"SELECT id, is_variant_null(v) FROM %s ORDER BY id",
		"SELECT id, to_json(v) FROM %s WHERE id BETWEEN 3 AND 10 ORDER BY id",
		"SELECT count(*), count(v) FROM %s",
		"SELECT id FROM %s WHERE id > 12 ORDER BY id",
	} {
		got := queryRows(t, db, strings.ReplaceAll(q, "%s", "ns.shredded"))
		want := queryRows(t, db, strings.ReplaceAll(q, "%s", "ns.plain"))
		if !slices.Equal(got, want) {
			t.Errorf("%s:\nshredded %q\nplain    %q", q, got, want)
		}
	}
	got := strings.Join(queryRows(t, db, "SELECT id, to_json(v) FROM ns.shredded WHERE id IN (1, 2, 6, 7, 9, 13) ORDER BY id"), ",")
	want := `1|{"a":1,"b":"x","d":{"x":true}},2|{"a":"one","z":[1,{"q":null}]},6|null,7|<nil>,9|34,13|{"a":100}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
