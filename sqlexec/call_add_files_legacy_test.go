package sqlexec_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// writeLegacyParquet writes, level by level, a file as early writers made
// them: a required int32 id, an unannotated repeated int32 xs (a list by
// LogicalTypes.md), a 2-level LIST ys (its repeated int32 is the element),
// and a footer whose own row count is 0 (parquet-rs 0.3).
func writeLegacyParquet(t *testing.T, path string) {
	t.Helper()
	must := func(n schema.Node, err error) schema.Node {
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	rep, opt, req := parquet.Repetitions.Repeated, parquet.Repetitions.Optional, parquet.Repetitions.Required
	root := must(schema.NewGroupNode("schema", req, schema.FieldList{
		must(schema.NewPrimitiveNode("id", req, parquet.Types.Int32, -1, 0)),
		must(schema.NewPrimitiveNode("xs", rep, parquet.Types.Int32, -1, 0)),
		must(schema.NewGroupNodeLogical("ys", opt, schema.FieldList{
			must(schema.NewPrimitiveNode("array", rep, parquet.Types.Int32, -1, 0)),
		}, schema.NewListLogicalType(), -1)),
	}, -1)).(*schema.GroupNode)
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root)
	rg := w.AppendRowGroup()
	// rows: (1, [10, 11], [7]), (2, [], NULL), (3, [12], [])
	cols := []struct {
		vals     []int32
		def, rep []int16
	}{
		{vals: []int32{1, 2, 3}},
		{vals: []int32{10, 11, 12}, def: []int16{1, 1, 0, 1}, rep: []int16{0, 1, 0, 0}},
		{vals: []int32{7}, def: []int16{2, 0, 1}, rep: []int16{0, 0, 0}},
	}
	for _, c := range cols {
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch(c.vals, c.def, c.rep); err != nil {
			t.Fatal(err)
		}
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := rg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - n
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[start:len(data)-8], &md); err != nil {
		t.Fatal(err)
	}
	md.NumRows = 0
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append([]byte(nil), data[:start]...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	if err := os.WriteFile(path, append(out, "PAR1"...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// add_files imports such a file through the table's name mapping: the
// lists read as LogicalTypes.md reads them, and the row count is the row
// groups' (a footer count of 0 once recorded 0 rows, and the scan
// returned none).
func TestAddFilesLegacyLayout(t *testing.T) {
	db, _ := openWarehouse(t)
	src := t.TempDir()
	writeLegacyParquet(t, filepath.Join(src, "legacy.parquet"))
	mustExec(t, db, "CREATE TABLE ns.legacy (id INT NOT NULL, xs ARRAY<INT> NOT NULL, ys ARRAY<INT>)")
	callRow(t, db, "CALL system.add_files(table => 'ns.legacy', source_table => ?)", "`parquet`.`"+src+"`")
	if got := queryInt64(t, db, "SELECT sum(record_count) FROM ns.legacy.files"); got != 3 {
		t.Errorf("record_count %d, want 3", got)
	}
	want := "1|[10,11]|[7],2|[]|<nil>,3|[12]|[]"
	if got := strings.Join(queryRows(t, db, "SELECT id, xs, ys FROM ns.legacy ORDER BY id"), ","); got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	if got := strings.Join(queryRows(t, db, "SELECT id FROM ns.legacy WHERE cardinality(xs) = 2"), ","); got != "1" {
		t.Errorf("rows with two xs: %s, want 1", got)
	}
}
