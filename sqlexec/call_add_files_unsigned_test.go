package sqlexec_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Unsigned 32-bit columns (INT(32, false), as pandas and arrow write
// uint32) read as long with values above 2^31 intact, as Java reads them,
// and their unsigned footer statistics never prune as signed bounds.
func TestAddFilesUnsigned32(t *testing.T) {
	db, _ := openWarehouse(t)
	src := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "u", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "r", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "s", Type: arrow.PrimitiveTypes.Uint16},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Uint32Builder).AppendValues([]uint32{1, 4000000000, 0, 2147483648}, []bool{true, true, false, true})
	b.Field(1).(*array.Uint32Builder).AppendValues([]uint32{4294967295, 7, 2147483647, 2147483648}, nil)
	b.Field(2).(*array.Uint16Builder).AppendValues([]uint16{65535, 1, 2, 3}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	writeRecordParquet(t, filepath.Join(src, "u.parquet"), rec)
	mustExec(t, db, "CREATE TABLE ns.u (u BIGINT, r BIGINT NOT NULL, s INT)")
	callRow(t, db, "CALL system.add_files(table => 'ns.u', source_table => ?)", "`parquet`.`"+src+"`")
	tests := []struct{ sql, want string }{
		{"SELECT u, r, s FROM ns.u ORDER BY r", "4000000000|7|1,<nil>|2147483647|2,2147483648|2147483648|3,1|4294967295|65535"},
		{"SELECT count(*) FROM ns.u WHERE u = 4000000000", "1"},
		{"SELECT count(*) FROM ns.u WHERE r > 2147483647", "2"},
		{"SELECT max(r), min(u) FROM ns.u", "4294967295|1"},
	}
	for _, tt := range tests {
		if got := strings.Join(queryRows(t, db, tt.sql), ","); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.sql, got, tt.want)
		}
	}
	// A uint32 column does not fit an int column.
	mustExec(t, db, "CREATE TABLE ns.narrow (u INT, r BIGINT NOT NULL, s INT)")
	if _, err := db.Exec("CALL system.add_files(table => 'ns.narrow', source_table => ?)", "`parquet`.`"+src+"`"); err == nil || !strings.Contains(err.Error(), `"u"`) {
		t.Fatalf("uint32 into INT: %v, want an error naming column u", err)
	}
}
