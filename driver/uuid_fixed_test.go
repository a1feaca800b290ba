package driver_test

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Two uuids and two 16-byte fixed values; the fixed ones are written as
// binary literals and as 16-character text.
const (
	uuidA  = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
	uuidB  = "b1eebc99-9c0b-4ef8-bb6d-6bb9bd380a22"
	fixedA = "00112233445566778899aabbccddeeff" // hex
	fixedB = "0123456789abcdef"                 // text
)

var fixedBHex = hex.EncodeToString([]byte(fixedB))

// uuidFixedDB holds a table with uuid, fixed[16] and binary columns side
// by side, at the top level and inside a list, a struct and a map.
func uuidFixedDB(t *testing.T) *sql.DB {
	db := openDB(t, t.TempDir())
	execAll(t, db,
		"CREATE TABLE t (id INT, u UUID, f FIXED(16), b BINARY, lu ARRAY<UUID>, su STRUCT<x: UUID, y: FIXED(16)>, mu MAP<UUID, FIXED(16)>)",
		"INSERT INTO t VALUES (1, '"+strings.ToUpper(uuidA)+"', X'"+fixedA+"', X'0011', ARRAY('"+uuidA+"', NULL, '"+uuidB+"'), named_struct('x', '"+uuidA+"', 'y', '"+fixedB+"'), MAP('"+uuidB+"', '"+fixedB+"'))",
		"INSERT INTO t VALUES (2, CAST('"+uuidB+"' AS UUID), '"+fixedB+"', X'"+fixedA+"', NULL, NULL, NULL), (3, NULL, NULL, NULL, ARRAY(), NULL, MAP())",
	)
	return db
}

// queryCells runs q and renders every row (see scanCells); it also
// returns the columns' database types.
func queryCells(t *testing.T, db *sql.DB, q string, args ...any) (types []string, rows [][]string) {
	t.Helper()
	rs, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	cts, err := rs.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cts {
		types = append(types, c.DatabaseTypeName())
	}
	return types, scanCells(t, rs, func() {})
}

// scanCells renders the rows of rs: []byte as hex, other values with %v,
// NULL as "NULL". It calls afterFirst once the first row is read.
func scanCells(t *testing.T, rs *sql.Rows, afterFirst func()) (rows [][]string) {
	t.Helper()
	cols, err := rs.Columns()
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				row[i] = "NULL"
			case []byte:
				row[i] = hex.EncodeToString(x)
			default:
				row[i] = fmt.Sprint(x)
			}
		}
		rows = append(rows, row)
		if len(rows) == 1 {
			afterFirst()
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestUUIDAndFixedResults(t *testing.T) {
	db := uuidFixedDB(t)
	// base64 of the fixed values, as JSON writes bytes inside nested values
	b64B := "MDEyMzQ1Njc4OWFiY2RlZg=="
	tests := []struct {
		name  string
		query string
		args  []any
		types []string
		rows  [][]string
	}{
		{"top level", "SELECT id, u, f, b FROM t ORDER BY id", nil,
			[]string{"INT", "UUID", "FIXED", "BINARY"},
			[][]string{{"1", uuidA, fixedA, "0011"}, {"2", uuidB, fixedBHex, fixedA}, {"3", "NULL", "NULL", "NULL"}}},
		{"nested as JSON", "SELECT lu, su, mu FROM t ORDER BY id", nil,
			[]string{"ARRAY", "STRUCT", "MAP"},
			[][]string{
				{`["` + uuidA + `",null,"` + uuidB + `"]`, `{"x":"` + uuidA + `","y":"` + b64B + `"}`, `{"` + uuidB + `":"` + b64B + `"}`},
				{"NULL", "NULL", "NULL"}, {"[]", "NULL", "{}"}}},
		{"nested element access", "SELECT lu[2], su.x, su.y, mu['" + uuidB + "'] FROM t WHERE id = 1", nil,
			[]string{"UUID", "UUID", "FIXED", "FIXED"},
			[][]string{{uuidB, uuidA, fixedBHex, fixedBHex}}},
		{"nested values built in the query", "SELECT ARRAY(u), named_struct('u', u, 'f', f), MAP(u, f) FROM t WHERE id = 2", nil,
			[]string{"ARRAY", "STRUCT", "MAP"},
			[][]string{{`["` + uuidB + `"]`, `{"u":"` + uuidB + `","f":"` + b64B + `"}`, `{"` + uuidB + `":"` + b64B + `"}`}}},
		{"where text in any case", "SELECT id FROM t WHERE u = '" + strings.ToUpper(uuidB) + "'", nil,
			[]string{"INT"}, [][]string{{"2"}}},
		{"where cast as uuid", "SELECT id FROM t WHERE u = CAST('" + uuidA + "' AS UUID)", nil,
			[]string{"INT"}, [][]string{{"1"}}},
		{"where parameter", "SELECT id FROM t WHERE u = ?", []any{uuidB},
			[]string{"INT"}, [][]string{{"2"}}},
		{"where fixed as text", "SELECT id FROM t WHERE f = '" + fixedB + "'", nil,
			[]string{"INT"}, [][]string{{"2"}}},
		{"where fixed cast to binary", "SELECT id FROM t WHERE CAST(f AS BINARY) = X'" + fixedA + "'", nil,
			[]string{"INT"}, [][]string{{"1"}}},
		{"casts", "SELECT CAST(u AS STRING), CAST(u AS BINARY), CAST(f AS UUID), CAST(b AS UUID), CAST(f AS STRING) FROM t WHERE id = 2", nil,
			[]string{"STRING", "BINARY", "UUID", "UUID", "STRING"},
			[][]string{{uuidB, "b1eebc999c0b4ef8bb6d6bb9bd380a22", "30313233-3435-3637-3839-616263646566", "00112233-4455-6677-8899-aabbccddeeff", fixedB}}},
		{"group by and order by", "SELECT u, count(*) FROM (SELECT u FROM t UNION ALL SELECT u FROM t WHERE id = 2) GROUP BY u ORDER BY u DESC NULLS LAST", nil,
			[]string{"UUID", "BIGINT"},
			[][]string{{uuidB, "2"}, {uuidA, "1"}, {"NULL", "1"}}},
		{"group by fixed", "SELECT f, min(u), max(u) FROM t GROUP BY f ORDER BY f", nil,
			[]string{"FIXED", "UUID", "UUID"},
			[][]string{{"NULL", "NULL", "NULL"}, {fixedA, uuidA, uuidA}, {fixedBHex, uuidB, uuidB}}},
		{"join on uuid", "SELECT a.id, b.id, b.u FROM t a JOIN t b ON a.u = b.u ORDER BY a.id", nil,
			[]string{"INT", "INT", "UUID"},
			[][]string{{"1", "1", uuidA}, {"2", "2", uuidB}}},
		{"join uuid with an element", "SELECT t.id, x.id FROM t JOIN t x ON t.u = x.lu[2]", nil,
			[]string{"INT", "INT"}, [][]string{{"2", "1"}}},
		{"distinct, coalesce and case", "SELECT DISTINCT COALESCE(u, CAST('" + uuidA + "' AS UUID)), CASE WHEN id > 1 THEN f END FROM t ORDER BY 1, 2", nil,
			[]string{"UUID", "FIXED"},
			[][]string{{uuidA, "NULL"}, {uuidB, fixedBHex}}},
		{"window partitioned by uuid", "SELECT u, row_number() OVER (PARTITION BY u ORDER BY id) FROM t WHERE u IS NOT NULL ORDER BY u", nil,
			[]string{"UUID", "BIGINT"}, [][]string{{uuidA, "1"}, {uuidB, "1"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			types, rows := queryCells(t, db, tc.query, tc.args...)
			if !slices.Equal(types, tc.types) {
				t.Errorf("types %v, want %v", types, tc.types)
			}
			if !reflect.DeepEqual(rows, tc.rows) {
				t.Errorf("rows\n%v\nwant\n%v", rows, tc.rows)
			}
		})
	}
}

// The column types tell uuid (text), fixed[16] (bytes, length 16) and
// binary apart.
func TestUUIDAndFixedColumnTypes(t *testing.T) {
	db := uuidFixedDB(t)
	rs, err := db.Query("SELECT u, f, b FROM t")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	cts, err := rs.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		scan    reflect.Type
		length  int64
		hasLen  bool
		nullabe bool
	}{
		{"UUID", reflect.TypeOf(""), 0, false, true},
		{"FIXED", reflect.TypeOf([]byte(nil)), 16, true, true},
		{"BINARY", reflect.TypeOf([]byte(nil)), 1<<63 - 1, true, true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cts[i]
			if c.DatabaseTypeName() != tc.name {
				t.Errorf("DatabaseTypeName %q", c.DatabaseTypeName())
			}
			if c.ScanType() != tc.scan {
				t.Errorf("ScanType %v, want %v", c.ScanType(), tc.scan)
			}
			if n, ok := c.Length(); n != tc.length || ok != tc.hasLen {
				t.Errorf("Length %d, %v; want %d, %v", n, ok, tc.length, tc.hasLen)
			}
		})
	}
}

func TestUUIDErrors(t *testing.T) {
	db := uuidFixedDB(t)
	for _, q := range []string{
		"SELECT CAST('not-a-uuid' AS UUID)",
		"SELECT CAST(b AS UUID) FROM t WHERE id = 1", // 2 bytes
		"SELECT id FROM t WHERE u = 'a0eebc99'",
		"INSERT INTO t (id, f) VALUES (9, 'seventeen bytes!!')",
		"INSERT INTO t (id, u) VALUES (9, '" + uuidA + "x')",
	} {
		t.Run(q, func(t *testing.T) {
			var ce *exec.CastError
			_, err := db.Exec(q)
			if err == nil {
				rows, qerr := db.Query(q)
				if qerr == nil {
					for rows.Next() {
					}
					qerr = rows.Err()
					rows.Close()
				}
				err = qerr
			}
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want *exec.CastError", err, err)
			}
			if strings.Contains(err.Error(), "extension") {
				t.Errorf("error %q names Arrow's extension type, not uuid", err)
			}
		})
	}
	if _, err := db.Query("SELECT id FROM t WHERE u = f"); err == nil {
		t.Error("uuid = fixed[16] compared without a cast")
	}
}

// Tables partitioned by bucket(uuid) and identity(uuid) write and read
// back the same values; the partitions table shows uuid partition values
// as text and fixed ones as bytes.
func TestUUIDPartitionedTables(t *testing.T) {
	db := uuidFixedDB(t)
	execAll(t, db,
		"CREATE TABLE pb (id INT, u UUID, f FIXED(16)) PARTITIONED BY (bucket(4, u), f)",
		"INSERT INTO pb SELECT id, u, f FROM t",
		"CREATE TABLE pi (id INT, u UUID) PARTITIONED BY (u)",
		"INSERT INTO pi SELECT id, u FROM t",
		"INSERT INTO pi VALUES (4, '"+uuidA+"')",
	)
	tests := []struct {
		name, query string
		rows        [][]string
	}{
		{"bucket read back", "SELECT id, u, f FROM pb ORDER BY id",
			[][]string{{"1", uuidA, fixedA}, {"2", uuidB, fixedBHex}, {"3", "NULL", "NULL"}}},
		{"bucket filtered", "SELECT id FROM pb WHERE u = '" + uuidB + "'", [][]string{{"2"}}},
		{"bucket partitions", "SELECT `partition`.u_bucket_4, record_count FROM pb.partitions ORDER BY 1",
			[][]string{{"NULL", "1"}, {bucket4(t, uuidA), "1"}, {bucket4(t, uuidB), "1"}}},
		{"identity read back", "SELECT id, u FROM pi ORDER BY id",
			[][]string{{"1", uuidA}, {"2", uuidB}, {"3", "NULL"}, {"4", uuidA}}},
		{"identity partitions", "SELECT `partition`, record_count FROM pi.partitions ORDER BY record_count DESC, `partition`.u",
			[][]string{{`{"u":"` + uuidA + `"}`, "2"}, {`{"u":null}`, "1"}, {`{"u":"` + uuidB + `"}`, "1"}}},
		{"identity grouped", "SELECT u, count(*) FROM pi GROUP BY u ORDER BY u",
			[][]string{{"NULL", "1"}, {uuidA, "2"}, {uuidB, "1"}}},
		{"not equal", "SELECT id FROM pi WHERE u IS NOT NULL AND u <> '" + uuidA + "'", [][]string{{"2"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, rows := queryCells(t, db, tc.query)
			if !reflect.DeepEqual(rows, tc.rows) {
				t.Errorf("rows\n%v\nwant\n%v", rows, tc.rows)
			}
		})
	}
	mustExec(t, db, "DELETE FROM pi WHERE u = '"+uuidA+"'")
	mustExec(t, db, "UPDATE pb SET u = '"+uuidA+"' WHERE id = 3")
	if _, rows := queryCells(t, db, "SELECT id, u FROM pi ORDER BY id"); !reflect.DeepEqual(rows, [][]string{{"2", uuidB}, {"3", "NULL"}}) {
		t.Errorf("pi after DELETE: %v", rows)
	}
	if _, rows := queryCells(t, db, "SELECT id FROM pb WHERE u = ? ORDER BY id", uuidA); !reflect.DeepEqual(rows, [][]string{{"1"}, {"3"}}) {
		t.Errorf("pb after UPDATE: %v", rows)
	}
}

// bucket4 is Iceberg's bucket[4] of a uuid (murmur3 of its 16 bytes); the
// bucket of the spec's example uuid checks the hash first.
func bucket4(t *testing.T, s string) string {
	t.Helper()
	spec, _ := iceberg.ParseUUID("f79c3e09-677c-4bbd-a479-3f349cb785e7")
	if h, _ := iceberg.HashValue(spec); h != 1488055340 {
		t.Fatalf("hash of the spec's uuid %d, want 1488055340", h)
	}
	u, err := iceberg.ParseUUID(s)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(iceberg.BucketTransform{N: 4}.Apply(u))
}

// ArrowConn: QueryArrow gives uuid columns Arrow's uuid extension type and
// fixed[16] plain FixedSizeBinary(16); AppendArrow takes either form for
// a uuid column.
func TestUUIDArrowConn(t *testing.T) {
	db := uuidFixedDB(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var types []arrow.DataType
	err = conn.Raw(func(dc any) error {
		rr, err := dc.(driver.ArrowConn).QueryArrow(ctx, "SELECT u, f FROM t")
		if err != nil {
			return err
		}
		defer rr.Release()
		for _, f := range rr.Schema().Fields() {
			types = append(types, f.Type)
		}
		for rr.Next() {
		}
		return rr.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(types) != 2 || !arrow.TypeEqual(types[0], extensions.NewUUIDType()) || !arrow.TypeEqual(types[1], &arrow.FixedSizeBinaryType{ByteWidth: 16}) {
		t.Fatalf("QueryArrow types %v", types)
	}

	mustExec(t, db, "CREATE TABLE a (id INT, u UUID)")
	mem := memory.NewGoAllocator()
	for _, ut := range []arrow.DataType{&arrow.FixedSizeBinaryType{ByteWidth: 16}, extensions.NewUUIDType()} {
		schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "u", Type: ut, Nullable: true}}, nil)
		b := array.NewRecordBuilder(mem, schema)
		b.Field(0).(*array.Int32Builder).Append(int32(len(types)))
		raw, _ := hex.DecodeString(strings.ReplaceAll(uuidB, "-", ""))
		if ext, ok := b.Field(1).(*extensions.UUIDBuilder); ok {
			ext.AppendBytes([16]byte(raw))
		} else {
			b.Field(1).(*array.FixedSizeBinaryBuilder).Append(raw)
		}
		rec := b.NewRecordBatch()
		b.Release()
		rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		err = conn.Raw(func(dc any) error {
			_, err := dc.(driver.ArrowConn).AppendArrow(ctx, "a", rr)
			return err
		})
		rr.Release()
		if err != nil {
			t.Fatalf("AppendArrow with %v: %v", ut, err)
		}
	}
	if _, rows := queryCells(t, db, "SELECT u, count(*) FROM a GROUP BY u"); !reflect.DeepEqual(rows, [][]string{{uuidB, "2"}}) {
		t.Errorf("appended rows %v", rows)
	}
}

// Under a 1 MiB memory_limit, grouping and sorting 100k uuids spill (through
// Arrow IPC files) and return what the default limit returns.
func TestUUIDSpills(t *testing.T) {
	if testing.Short() {
		t.Skip("spills 100k rows")
	}
	dir := t.TempDir()
	spill := filepath.Join(dir, "spill")
	if err := os.MkdirAll(spill, 0o755); err != nil {
		t.Fatal(err)
	}
	roomy := openDB(t, dir+"/lake")
	execAll(t, roomy,
		"CREATE TABLE d (x BIGINT)",
		"INSERT INTO d VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)",
		"CREATE TABLE n (k BIGINT, u UUID, f FIXED(16))",
		`INSERT INTO n SELECT k, CAST(concat('00000000-0000-4000-8000-', CAST(100000000000 + k * 7 % 100000 AS STRING)) AS UUID),
			CAST(concat('f', CAST(100000000000000 + k AS STRING)) AS BINARY)
			FROM (SELECT a.x + 10*b.x + 100*c.x + 1000*e.x + 10000*g.x AS k FROM d a, d b, d c, d e, d g)`,
	)
	tight := openDB(t, dir+"/lake?memory_limit=1MiB&spill_dir="+spill)
	for _, q := range []string{
		"SELECT u, count(*), min(f), max(k) FROM n GROUP BY u",
		"SELECT u, f, k FROM n ORDER BY u DESC, f",
	} {
		t.Run(q, func(t *testing.T) {
			types, want := queryCells(t, roomy, q)
			if len(want) != 100000 || types[0] != "UUID" || types[len(types)-1] != "BIGINT" {
				t.Fatalf("%d rows typed %v", len(want), types)
			}
			if want[0][0] == want[1][0] {
				t.Fatalf("generated uuids repeat: %v", want[:2])
			}
			rs, err := tight.Query(q)
			if err != nil {
				t.Fatal(err)
			}
			spilled := -1
			got := scanCells(t, rs, func() {
				es, err := os.ReadDir(spill)
				if err != nil {
					t.Fatal(err)
				}
				spilled = len(es)
			})
			rs.Close()
			if !strings.Contains(q, "ORDER BY") {
				slices.SortFunc(want, slices.Compare)
				slices.SortFunc(got, slices.Compare)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("1 MiB limit gave %d rows differing from the default limit's %d", len(got), len(want))
			}
			if spilled <= 0 {
				t.Fatalf("%d files in spill_dir during the query: nothing spilled", spilled)
			}
		})
	}
}
