package driver_test

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/sqlexec/exec"
)

// A table with a write order sorts every write's rows before writing:
// under a 1 MiB memory_limit the sort spills, the rows still land in
// several files each sorted by (k, id DESC) and recording sort order 1,
// and nothing is lost; AppendArrow and UPDATE's rewrite sort the same way.
func TestWriteOrderSortsEveryFile(t *testing.T) {
	if testing.Short() {
		t.Skip("200k rows through a spilling sort")
	}
	dir, spill, roomy := newSpillFixture(t)
	tight := openDB(t, dir+"/lake?memory_limit=1MiB&spill_dir="+spill)
	mustExec(t, tight, `CREATE TABLE o (id BIGINT, k STRING, v DOUBLE) TBLPROPERTIES ('write.target-file-size-bytes' = '262144')`)
	mustExec(t, tight, "ALTER TABLE o WRITE ORDERED BY k, id DESC")
	runs := exec.SortSpillRuns()
	mustExec(t, tight, `INSERT INTO o SELECT a.x + 10*b.x + 100*c.x + 1000*e.x + 10000*f.x + 100000*g.x,
		CASE WHEN b.x = 7 THEN NULL ELSE concat('k', CAST((a.x * 7919 + c.x * 31 + e.x * 977 + f.x * 13) % 5000 AS STRING)) END,
		a.x * 0.5 FROM d a, d b, d c, d e, d f, d g WHERE g.x < 2`)
	if exec.SortSpillRuns() == runs {
		t.Fatal("the write's sort did not spill under memory_limit=1MiB")
	}
	if ents, _ := os.ReadDir(spill); len(ents) != 0 {
		t.Fatalf("spill files left behind: %d", len(ents))
	}
	checkSortedFiles(t, roomy, "o", 200_000, 2)

	// AppendArrow: 30k more rows in two records, keys descending
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for part := range 2 {
		b := array.NewRecordBuilder(mem, schema)
		for i := range 15_000 {
			n := part*15_000 + i
			b.Field(0).(*array.Int64Builder).Append(int64(1_000_000 + n))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("k%d", 29_999-n))
			b.Field(2).(*array.Float64Builder).Append(float64(n))
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rr, err := array.NewRecordReader(schema, recs)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	conn, err := roomy.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Raw(func(dc any) error {
		_, err := dc.(driver.ArrowConn).AppendArrow(context.Background(), "o", rr)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	checkSortedFiles(t, roomy, "o", 230_000, 3)

	// UPDATE's copy-on-write rewrite goes through the sort too, spilling
	runs = exec.SortSpillRuns()
	mustExec(t, tight, "UPDATE o SET k = concat(k, 'x') WHERE id % 3 = 0")
	if exec.SortSpillRuns() == runs {
		t.Fatal("the UPDATE's sort did not spill under memory_limit=1MiB")
	}
	if ents, _ := os.ReadDir(spill); len(ents) != 0 {
		t.Fatalf("spill files left behind: %d", len(ents))
	}
	checkSortedFiles(t, roomy, "o", 230_000, 2)
	var changed int
	if err := roomy.QueryRow("SELECT count(*) FROM o WHERE k LIKE '%x'").Scan(&changed); err != nil || changed == 0 {
		t.Fatalf("updated rows: %d (%v)", changed, err)
	}
}

// checkSortedFiles reads every data file of table in file order and
// checks its rows are sorted by (k NULLS FIRST, id DESC), and that the
// table has rows rows in at least minFiles files, every one recording
// sort order 1.
func checkSortedFiles(t *testing.T, db *sql.DB, table string, rows, minFiles int) {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil || n != rows {
		t.Fatalf("count(*) = %d (%v), want %d", n, err, rows)
	}
	paths := queryStrings(t, db, "SELECT file_path FROM "+table+".files WHERE sort_order_id = 1")
	if len(paths) < minFiles {
		t.Fatalf("%d sorted data files, want at least %d", len(paths), minFiles)
	}
	if others := queryStrings(t, db, "SELECT file_path FROM "+table+".files WHERE sort_order_id <> 1"); len(others) > 0 {
		t.Fatalf("files not recorded as sorted: %v", others)
	}
	total := 0
	for _, p := range paths {
		keys := readKeys(t, strings.TrimPrefix(p, "file://"))
		total += len(keys)
		if !slices.IsSortedFunc(keys, cmpKey) {
			t.Fatalf("%s: rows not in write order", p)
		}
	}
	if total != rows {
		t.Fatalf("files hold %d rows, want %d", total, rows)
	}
}

type sortKey struct {
	k  *string
	id int64
}

func cmpKey(a, b sortKey) int {
	switch {
	case a.k == nil && b.k != nil:
		return -1
	case a.k != nil && b.k == nil:
		return 1
	case a.k != nil && *a.k != *b.k:
		return strings.Compare(*a.k, *b.k)
	}
	return cmp.Compare(b.id, a.id)
}

func readKeys(t *testing.T, path string) []sortKey {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := parquetfile.Open(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	schema, err := r.Schema(nil)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), schema, parquetfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	batches, err := rr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []sortKey
	for _, b := range batches {
		ids, ks := b.Column(0).(*array.Int64), b.Column(1).(*array.String)
		for i := range int(b.NumRows()) {
			key := sortKey{id: ids.Value(i)}
			if ks.IsValid(i) {
				s := ks.Value(i)
				key.k = &s
			}
			out = append(out, key)
		}
		b.Release()
	}
	return out
}
