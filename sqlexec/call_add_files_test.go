package sqlexec_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec"
)

// writePlainParquet writes a Parquet file without field ids (as Spark or
// pandas would) holding int64 id and string v columns.
func writePlainParquet(t *testing.T, path string, ids []int64, vs []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "v", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues(ids, nil)
	b.Field(1).(*array.StringBuilder).AppendValues(vs, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	writeRecordParquet(t, path, rec)
}

// writeRecordParquet writes rec as a Parquet file with pqarrow's defaults.
func writeRecordParquet(t *testing.T, path string, rec arrow.RecordBatch) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAddFiles(t *testing.T) {
	db, _ := openWarehouse(t)
	src := t.TempDir()
	writePlainParquet(t, filepath.Join(src, "a.parquet"), []int64{1, 2}, []string{"x", "y"})
	writePlainParquet(t, filepath.Join(src, "sub", "b.parquet"), []int64{3}, []string{"z"})
	if err := os.WriteFile(filepath.Join(src, "_SUCCESS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "CREATE TABLE ns.t (id BIGINT, v STRING)")
	source := "`parquet`.`" + src + "`"

	row := callRow(t, db, "CALL system.add_files(table => 'ns.t', source_table => ?)", source)
	if row["added_files_count"] != int64(2) || row["changed_partition_count"] != nil {
		t.Fatalf("add_files = %v, want 2 files and a NULL partition count (v2)", row)
	}
	if got := queryRows(t, db, "SELECT id, v FROM ns.t ORDER BY id"); strings.Join(got, ",") != "1|x,2|y,3|z" {
		t.Fatalf("rows = %v", got)
	}
	// footer metrics prune: only one file may hold id 3
	if got := queryInt64(t, db, "SELECT count(*) FROM ns.t.files WHERE lower_bounds IS NOT NULL"); got != 2 {
		t.Fatalf("files with bounds = %d, want 2", got)
	}
	if got := queryInt64(t, db, "SELECT sum(record_count) FROM ns.t.files"); got != 3 {
		t.Fatalf("record counts sum to %d, want 3", got)
	}

	t.Run("duplicates refused", func(t *testing.T) {
		_, err := db.Exec("CALL system.add_files('ns.t', ?)", source)
		if !errors.Is(err, sqlexec.ErrProcedureArgument) || !strings.Contains(err.Error(), "already in the table") {
			t.Fatalf("err = %v, want a duplicate file error", err)
		}
		row := callRow(t, db, "CALL system.add_files('ns.t', ?, NULL, false)", source)
		if row["added_files_count"] != int64(2) {
			t.Fatalf("add_files without the check = %v", row)
		}
		if got := queryInt64(t, db, "SELECT count(*) FROM ns.t"); got != 6 {
			t.Fatalf("count = %d, want 6", got)
		}
	})

	t.Run("schema mismatch names file and column", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE ns.narrow (id INT, v STRING)")
		before := queryInt64(t, db, "SELECT count(*) FROM ns.narrow.snapshots")
		_, err := db.Exec("CALL system.add_files('ns.narrow', ?)", source)
		if !errors.Is(err, iceberg.ErrInvalidDataFile) || !strings.Contains(err.Error(), "a.parquet") || !strings.Contains(err.Error(), `"id"`) {
			t.Fatalf("err = %v, want one naming a.parquet and column id", err)
		}
		if after := queryInt64(t, db, "SELECT count(*) FROM ns.narrow.snapshots"); after != before {
			t.Fatalf("a failed add_files committed")
		}
	})

	t.Run("unknown column", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE ns.other (id BIGINT, w STRING)")
		_, err := db.Exec("CALL system.add_files('ns.other', ?)", source)
		if !errors.Is(err, iceberg.ErrInvalidDataFile) || !strings.Contains(err.Error(), `column "v" matches no column`) {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("partitioned layout", func(t *testing.T) {
		part := t.TempDir()
		writePlainParquet(t, filepath.Join(part, "v=p", "f.parquet"), []int64{10, 11}, []string{"p", "p"})
		writePlainParquet(t, filepath.Join(part, "v=q", "f.parquet"), []int64{12}, []string{"q"})
		mustExec(t, db, "CREATE TABLE ns.p (id BIGINT, v STRING) PARTITIONED BY (v)")
		row := callRow(t, db, "CALL system.add_files(table => 'ns.p', source_table => ?, partition_filter => map('v', 'q'))", "`parquet`.`"+part+"`")
		if row["added_files_count"] != int64(1) {
			t.Fatalf("add_files = %v", row)
		}
		if got := queryRows(t, db, "SELECT id, v FROM ns.p WHERE v = 'q'"); strings.Join(got, ",") != "12|q" {
			t.Fatalf("rows = %v", got)
		}
		// a flat directory does not fit a partitioned table
		_, err := db.Exec("CALL system.add_files('ns.p', ?)", source)
		if !errors.Is(err, sqlexec.ErrProcedureArgument) || !strings.Contains(err.Error(), "partition directories") {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("bad arguments", func(t *testing.T) {
		for _, tc := range []struct{ q, want string }{
			{"CALL system.add_files('ns.t', 'ns.src')", "argument source_table"},
			{"CALL system.add_files('ns.t', '`orc`.`/x`')", "only parquet"},
			{"CALL system.add_files('ns.t', '`parquet`.`/no/such/dir`')", "not a readable directory"},
			{"CALL system.add_files('ns.t')", "argument source_table: missing"},
		} {
			_, err := db.Exec(tc.q)
			if !errors.Is(err, sqlexec.ErrProcedureArgument) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: err = %v, want %q", tc.q, err, tc.want)
			}
		}
	})
}
