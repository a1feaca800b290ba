package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec"
)

// Schema and partition evolution end to end through database/sql; the
// plain SQL cases are in testdata/sql/evolution. These are the ones that
// need Arrow, EXPLAIN, snapshot ids or files written outside the engine.

var explainFiles = regexp.MustCompile(`files (\d+)/(\d+)`)

// plannedFiles returns how many data files a query's Iceberg scan plans
// out of how many live ones (from EXPLAIN).
func plannedFiles(t *testing.T, db *sql.DB, q string) (planned, total int) {
	t.Helper()
	lines := queryStrings(t, db, "EXPLAIN "+q)
	for _, l := range lines {
		if m := explainFiles.FindStringSubmatch(l); m != nil {
			planned, _ = strconv.Atoi(m[1])
			total, _ = strconv.Atoi(m[2])
			return planned, total
		}
	}
	t.Fatalf("EXPLAIN %s: no file counts in %q", q, lines)
	return 0, 0
}

func execAll(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		mustExec(t, db, s)
	}
}

// Pruning on evolved columns: old files have no stats for an added column
// (IS NULL must keep them), and 4-byte bounds of promoted columns still
// decide filters on the widened type.
func TestEvolutionPruning(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE a (id INT, f FLOAT, d DECIMAL(9,2))",
		"INSERT INTO a VALUES (1, 1.5, 1.25), (2, 2.5, 2.50)",
		"INSERT INTO a VALUES (100, 100.5, 100.75)",
		"ALTER TABLE a ADD COLUMNS (c STRING)",
		"ALTER TABLE a ALTER COLUMN id TYPE BIGINT",
		"ALTER TABLE a ALTER COLUMN f TYPE DOUBLE",
		"ALTER TABLE a ALTER COLUMN d TYPE DECIMAL(18,2)",
		"INSERT INTO a VALUES (5000000000, 1e300, 1234567890123.45, 'new')",
	)
	tests := []struct {
		where   string
		planned int
		rows    []string
	}{
		{"c IS NULL", 2, []string{"1", "100", "2"}},
		{"c IS NOT NULL", 3, []string{"5000000000"}}, // old files have no stats: kept
		{"c = 'new'", 3, []string{"5000000000"}},
		{"c = 'zzz'", 2, nil},
		{"id > 50 AND id < 1000", 1, []string{"100"}},
		{"id = 5000000000", 1, []string{"5000000000"}},
		{"id < 3", 1, []string{"1", "2"}},
		{"f > 2.0 AND f < 3.0", 1, []string{"2"}},
		{"f > 1e200", 1, []string{"5000000000"}},
		{"d >= 100.75 AND d <= 100.75", 1, []string{"100"}},
		{"d > 1000000000", 1, []string{"5000000000"}},
	}
	for _, tc := range tests {
		t.Run(tc.where, func(t *testing.T) {
			q := "SELECT id FROM a WHERE " + tc.where
			planned, total := plannedFiles(t, db, q)
			if total != 3 || planned != tc.planned {
				t.Errorf("planned %d/%d files, want %d/3", planned, total, tc.planned)
			}
			got := queryStrings(t, db, q+" ORDER BY CAST(id AS STRING)")
			if strings.Join(got, ",") != strings.Join(tc.rows, ",") {
				t.Errorf("rows %v, want %v", got, tc.rows)
			}
		})
	}
	var typ []string
	rows, err := db.Query("SELECT id, f, d FROM a")
	if err != nil {
		t.Fatal(err)
	}
	cts, _ := rows.ColumnTypes()
	rows.Close()
	for _, c := range cts {
		typ = append(typ, c.DatabaseTypeName())
	}
	if strings.Join(typ, ",") != "BIGINT,DOUBLE,DECIMAL" {
		t.Errorf("promoted column types %v", typ)
	}
}

// ADD COLUMN inside a struct: old rows read the new field as NULL inside a
// non-null struct (SQL has no struct constructor, so rows go in as Arrow).
func TestEvolutionAddStructField(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE s (id BIGINT, p STRUCT<x: INT>)")
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	appendRows := func(st *arrow.StructType, build func(b *array.RecordBuilder)) {
		t.Helper()
		schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "p", Type: st, Nullable: true}}, nil)
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer b.Release()
		build(b)
		rec := b.NewRecord()
		defer rec.Release()
		rr, err := array.NewRecordReader(schema, []arrow.Record{rec})
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Release()
		err = conn.Raw(func(dc any) error {
			_, err := dc.(driver.ArrowConn).AppendArrow(ctx, "s", rr)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	oldType := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	appendRows(oldType, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
		sb := b.Field(1).(*array.StructBuilder)
		sb.AppendValues([]bool{true, true})
		sb.FieldBuilder(0).(*array.Int32Builder).AppendValues([]int32{10, 20}, nil)
	})
	mustExec(t, db, "ALTER TABLE s ADD COLUMNS (p.y STRING)")
	newType := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})
	appendRows(newType, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int64Builder).Append(3)
		sb := b.Field(1).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Int32Builder).Append(30)
		sb.FieldBuilder(1).(*array.StringBuilder).Append("thirty")
	})

	var got []string
	err = conn.Raw(func(dc any) error {
		rr, err := dc.(driver.ArrowConn).QueryArrow(ctx, "SELECT id, p FROM s ORDER BY id")
		if err != nil {
			return err
		}
		defer rr.Release()
		for rr.Next() {
			rec := rr.Record()
			ids := rec.Column(0).(*array.Int64)
			ps := rec.Column(1).(*array.Struct)
			if n := ps.NumField(); n != 2 {
				return fmt.Errorf("struct has %d fields, want x and y", n)
			}
			for i := 0; i < int(rec.NumRows()); i++ {
				got = append(got, fmt.Sprintf("%d:%s/%s", ids.Value(i), ps.Field(0).ValueStr(i), ps.Field(1).ValueStr(i)))
			}
		}
		return rr.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "1:10/(null),2:20/(null),3:30/thirty"
	if strings.Join(got, ",") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}

// DESCRIBE and SHOW CREATE TABLE use a renamed partition source column's
// new name.
func TestEvolutionDescribeAfterRename(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE r (id BIGINT, cat STRING) PARTITIONED BY (cat, bucket(2, id))",
		"INSERT INTO r VALUES (1, 'a')",
		"ALTER TABLE r RENAME COLUMN cat TO category",
	)
	desc := strings.Join(queryStrings(t, db, "DESCRIBE r"), "\n")
	for _, want := range []string{"category|string", "Part 0|category", "Part 1|bucket(2, id)"} {
		if !strings.Contains(desc, want) {
			t.Errorf("DESCRIBE lacks %q:\n%s", want, desc)
		}
	}
	if strings.Contains(desc, "cat|") {
		t.Errorf("DESCRIBE still names cat:\n%s", desc)
	}
	show := strings.Join(queryStrings(t, db, "SHOW CREATE TABLE r"), "\n")
	for _, want := range []string{"category STRING", "PARTITIONED BY (category, bucket(2, id))"} {
		if !strings.Contains(show, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, show)
		}
	}
	planned, total := plannedFiles(t, db, "SELECT id FROM r WHERE category = 'b'")
	if planned != 0 {
		t.Errorf("partition pruning on the renamed column: planned %d/%d", planned, total)
	}
}

// A branch reads with the current schema even at an old snapshot; VERSION
// AS OF the same snapshot id reads with the snapshot's schema.
func TestEvolutionBranchAtOldSnapshot(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE b (id BIGINT, v STRING)",
		"INSERT INTO b VALUES (1, 'one')",
	)
	old := queryInt(t, db, "SELECT snapshot_id FROM b.snapshots")
	execAll(t, db,
		"ALTER TABLE b RENAME COLUMN v TO label",
		"INSERT INTO b VALUES (2, 'two')",
		fmt.Sprintf("ALTER TABLE b CREATE BRANCH old AS OF VERSION %d", old),
	)
	tests := []struct{ q, want string }{
		{"SELECT id, label FROM b.branch_old WHERE label = 'one'", "1|one"},
		{fmt.Sprintf("SELECT id, v FROM b VERSION AS OF %d WHERE v = 'one'", old), "1|one"},
		{"SELECT id, label FROM b WHERE label = 'two'", "2|two"},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			if got := strings.Join(queryStrings(t, db, tc.q), ","); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := tryQueryStrings(db, fmt.Sprintf("SELECT label FROM b VERSION AS OF %d", old)); err == nil {
		t.Error("time travel to the old snapshot resolved the new column name")
	}
}

// ALTER COLUMN ... DROP NOT NULL works; making a column required is
// refused with an error naming the column.
func TestEvolutionNotNull(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE n (id BIGINT NOT NULL, v STRING)",
		"INSERT INTO n VALUES (1, 'a')",
	)
	if _, err := db.Exec("INSERT INTO n VALUES (NULL, 'b')"); err == nil {
		t.Fatal("NULL accepted in a NOT NULL column")
	}
	mustExec(t, db, "ALTER TABLE n ALTER COLUMN id DROP NOT NULL")
	mustExec(t, db, "INSERT INTO n VALUES (NULL, 'b')")
	if got := strings.Join(queryStrings(t, db, "SELECT id, v FROM n ORDER BY v"), ","); got != "1|a,<nil>|b" {
		t.Errorf("rows %q", got)
	}
	for _, q := range []string{"ALTER TABLE n ALTER COLUMN v SET NOT NULL", "ALTER TABLE n ADD COLUMNS (w INT NOT NULL)"} {
		_, err := db.Exec(q)
		if !errors.Is(err, sqlexec.ErrInvalidStatement) {
			t.Errorf("%s: err = %v, want ErrInvalidStatement", q, err)
		}
		if err != nil && !strings.Contains(err.Error(), "required") {
			t.Errorf("%s: error %q does not say why", q, err)
		}
	}
}

// The partitions table keeps one row per partition of each spec, as
// Java does, over a partition struct that unions all specs' fields.
func TestEvolutionPartitionsAcrossSpecs(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE e (id BIGINT, cat STRING) PARTITIONED BY (cat)",
		"INSERT INTO e VALUES (1, 'a'), (2, 'b')",
		"ALTER TABLE e REPLACE PARTITION FIELD cat WITH bucket(4, id)",
		"INSERT INTO e VALUES (3, 'c')",
	)
	got := strings.Join(queryStrings(t, db, "SELECT spec_id, record_count FROM e.partitions ORDER BY spec_id, record_count"), ",")
	if got != "0|1,0|1,1|1" {
		t.Fatalf("partitions rows %q, want one per partition of each spec", got)
	}
	// The partition struct unions both specs' fields, NULL where a spec
	// lacks one; the files table shares it.
	for _, q := range []string{
		"SELECT spec_id, `partition` FROM e.partitions",
		"SELECT spec_id, `partition` FROM e.files",
	} {
		rows := queryStrings(t, db, q)
		sort.Strings(rows)
		got = strings.Join(rows, ",")
		if want := `0|{"cat":"a","id_bucket_4":null},0|{"cat":"b","id_bucket_4":null},1|{"cat":null,"id_bucket_4":3}`; got != want {
			t.Fatalf("%s: %q, want %q", q, got, want)
		}
	}
}

// A tag on an old head reads and filters with its own schema after a
// column is dropped and re-added under the same name.
func TestEvolutionTagAtHeadAfterSchemaChange(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE g (id BIGINT, v STRING)",
		"INSERT INTO g VALUES (1, 'old')",
		"ALTER TABLE g CREATE TAG t1",
		"ALTER TABLE g DROP COLUMN v",
		"ALTER TABLE g ADD COLUMNS (v STRING)",
	)
	if got := strings.Join(queryStrings(t, db, "SELECT id, v FROM g.tag_t1 WHERE v = 'old'"), ","); got != "1|old" {
		t.Fatalf("tag read %q, want the snapshot's own v", got)
	}
}

// SET/DROP IDENTIFIER FIELDS write a new schema; identifier fields
// must be required primitive non-floating columns and stay required.
func TestEvolutionIdentifierFields(t *testing.T) {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE k (id BIGINT NOT NULL, id2 INT NOT NULL, v STRING, d DOUBLE NOT NULL, l ARRAY<INT> NOT NULL)",
		"ALTER TABLE k SET IDENTIFIER FIELDS id",
	)
	if _, err := db.Exec("ALTER TABLE k ALTER COLUMN id DROP NOT NULL"); err == nil {
		t.Fatal("an identifier field was made optional")
	}
	if _, err := db.Exec("ALTER TABLE k DROP COLUMN id"); err == nil {
		t.Fatal("an identifier field was dropped")
	}
	refused := []struct{ name, stmt string }{
		{"optional column", "ALTER TABLE k SET IDENTIFIER FIELDS v"},
		{"double column", "ALTER TABLE k SET IDENTIFIER FIELDS d"},
		{"list column", "ALTER TABLE k SET IDENTIFIER FIELDS l"},
		{"unknown column", "ALTER TABLE k SET IDENTIFIER FIELDS nope"},
		{"drop a non-identifier", "ALTER TABLE k DROP IDENTIFIER FIELDS id2"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.Exec(tc.stmt)
			if err == nil {
				t.Fatalf("%s succeeded", tc.stmt)
			}
			if !errors.Is(err, sqlexec.ErrInvalidStatement) && !errors.Is(err, iceberg.ErrNoSuchField) {
				t.Fatalf("%s: %v, want an invalid-statement or no-such-field error", tc.stmt, err)
			}
		})
	}
	execAll(t, db,
		"ALTER TABLE k SET IDENTIFIER FIELDS id, id2",
		"ALTER TABLE k DROP IDENTIFIER FIELDS id",
		"ALTER TABLE k ALTER COLUMN id DROP NOT NULL",
	)
	if _, err := db.Exec("ALTER TABLE k ALTER COLUMN id2 DROP NOT NULL"); err == nil {
		t.Fatal("the remaining identifier field id2 was made optional")
	}
	execAll(t, db,
		"ALTER TABLE k DROP IDENTIFIER FIELDS id2",
		"ALTER TABLE k ALTER COLUMN id2 DROP NOT NULL",
	)
}

// A Parquet file written without field ids (pqarrow, as other writers
// do) and registered with the table package reads through
// schema.name-mapping.default: columns bind by mapped name, including an
// alias, and unmapped columns are ignored.
func TestEvolutionNameMapping(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, dir)
	execAll(t, db,
		"CREATE TABLE nm (id BIGINT, name STRING, score DOUBLE)",
		"INSERT INTO nm VALUES (1, 'native', 1.0)",
		`ALTER TABLE nm SET TBLPROPERTIES ('schema.name-mapping.default' = '[{"field-id": 1, "names": ["id"]}, {"field-id": 2, "names": ["name", "full_name"]}, {"field-id": 3, "names": ["score"]}]')`,
	)

	cat, err := sqlite.Open(ctx, filepath.Join(dir, "catalog.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	env := &table.Env{Catalog: cat.TableCatalog(), IO: &fileio.Local{}}
	tbl, err := table.Load(ctx, env, table.Identifier{Namespace: []string{"default"}, Name: "nm"})
	if err != nil {
		t.Fatal(err)
	}
	for name, id := range map[string]int{"id": 1, "name": 2, "score": 3} {
		if f, ok := tbl.Schema().FindFieldByName(name); !ok || f.ID != id {
			t.Fatalf("column %s has id %d, the mapping assumes %d", name, f.ID, id)
		}
	}

	// The file: id, full_name (an alias of name), extra (unmapped), score.
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "full_name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "extra", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{10, 20}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"ten", ""}, []bool{true, false})
	b.Field(2).(*array.Int32Builder).AppendValues([]int32{7, 8}, nil)
	b.Field(3).(*array.Float64Builder).AppendValues([]float64{10.5, 20.5}, nil)
	rec := b.NewRecord()
	defer rec.Release()
	loc := tbl.DataDir() + "/external-no-ids.parquet"
	path, err := fileio.LocalPath(loc)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close() // WriteTable closes it too; the second close is harmless
	arrTable := array.NewTableFromRecords(schema, []arrow.Record{rec})
	defer arrTable.Release()
	if err := pqarrow.WriteTable(arrTable, out, 1024, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ser := func(typ iceberg.Type, v any) []byte {
		out, err := iceberg.SerializeValue(typ, v)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	df := iceberg.DataFile{
		Content: iceberg.ContentData, FilePath: loc, FileFormat: iceberg.FormatParquet, Partition: []any{},
		RecordCount: 2, FileSizeInBytes: st.Size(), SpecID: tbl.Spec().ID,
		ValueCounts:     map[int]int64{1: 2, 2: 2, 3: 2},
		NullValueCounts: map[int]int64{1: 0, 2: 1, 3: 0},
		LowerBounds: map[int][]byte{1: ser(iceberg.LongType{}, int64(10)), 2: ser(iceberg.StringType{}, "ten"),
			3: ser(iceberg.DoubleType{}, 10.5)},
		UpperBounds: map[int][]byte{1: ser(iceberg.LongType{}, int64(20)), 2: ser(iceberg.StringType{}, "ten"),
			3: ser(iceberg.DoubleType{}, 20.5)},
	}
	if _, err := tbl.NewAppend().AddDataFile(df).Commit(ctx); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		q       string
		want    string
		planned int
	}{
		{"SELECT * FROM nm ORDER BY id", "1|native|1,10|ten|10.5,20|<nil>|20.5", 2},
		{"SELECT id FROM nm WHERE name = 'ten'", "10", 1},
		{"SELECT id FROM nm WHERE id > 15", "20", 1},
		{"SELECT id FROM nm WHERE name IS NULL", "20", 1},
		{"SELECT id, score FROM nm WHERE score BETWEEN 10 AND 11", "10|10.5", 1},
		{"SELECT count(*), count(name), sum(score) FROM nm", "3|2|32", 2},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			if got := strings.Join(queryStrings(t, db, tc.q), ","); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if planned, _ := plannedFiles(t, db, tc.q); planned != tc.planned {
				t.Errorf("planned %d files, want %d", planned, tc.planned)
			}
		})
	}
}
