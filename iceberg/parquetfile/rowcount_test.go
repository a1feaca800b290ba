package parquetfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// withFooterRows rewrites the file's own row count (FileMetaData.num_rows)
// in its footer, leaving its row groups' counts alone.
func withFooterRows(t *testing.T, data []byte, rows int64) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - n
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[start:len(data)-8], &md); err != nil {
		t.Fatal(err)
	}
	md.NumRows = rows
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append([]byte(nil), data[:start]...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// TestFooterRowCount: a footer whose own row count is 0 beside row groups
// holding rows (parquet-rs 0.3 wrote files so: the corpus's
// repeated_no_annotation) reads its row groups' rows; any other count
// that disagrees with the row groups is refused as corrupt.
func TestFooterRowCount(t *testing.T) {
	id, err := schema.NewPrimitiveNode("id", parquet.Repetitions.Required, parquet.Types.Int32, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{id}, -1)
	if err != nil {
		t.Fatal(err)
	}
	good := writeLevels(t, root, 3, levelColumn{vals: []int32{1, 2, 3}})
	for _, tc := range []struct {
		footer int64
		ok     bool
	}{{3, true}, {0, true}, {2, false}, {4, false}} {
		data := withFooterRows(t, good, tc.footer)
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if !tc.ok {
			if !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Errorf("footer of %d rows: %v, want iceberg.ErrInvalidDataFile", tc.footer, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("footer of %d rows: %v", tc.footer, err)
		}
		if r.NumRows() != 3 {
			t.Errorf("footer of %d rows: NumRows %d, want 3", tc.footer, r.NumRows())
		}
		tbl, err := readByPath(data)
		if err != nil {
			t.Fatalf("footer of %d rows: %v", tc.footer, err)
		}
		if tbl.NumRows() != 3 {
			t.Errorf("footer of %d rows: read %d rows, want 3", tc.footer, tbl.NumRows())
		}
		tbl.Release()
	}
}
