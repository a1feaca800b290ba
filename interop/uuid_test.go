package interop

import (
	"context"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	goiceberg "github.com/apache/iceberg-go"
	gotable "github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// TestSQLUUIDAndFixedIcebergGoReads: uuid and fixed[16] columns written
// through database/sql (top level and in a list and a struct; tables
// partitioned by bucket(4, u) and identity(u)) are what iceberg-go
// expects on disk: its schema has uuid and fixed[16], its reader gives
// uuid as Arrow's uuid extension type and fixed[16] as FixedSizeBinary(16)
// with the same bytes, its partition values match its own transforms,
// and its filtered scans on uuid prune and match.
func TestSQLUUIDAndFixedIcebergGoReads(t *testing.T) {
	dir := t.TempDir()
	db := openSQL(t, dir)
	uuids := []string{
		"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
		"b1eebc99-9c0b-4ef8-bb6d-6bb9bd380a22",
		"f79c3e09-677c-4bbd-a479-3f349cb785e7",
	}
	mustExec(t, db, "CREATE NAMESPACE lake")
	for _, spec := range []string{"bucket(4, u)", "u"} {
		name := map[string]string{"bucket(4, u)": "by_bucket", "u": "by_identity"}[spec]
		mustExec(t, db, "CREATE TABLE lake."+name+" (id BIGINT, u UUID, f FIXED(16), lu ARRAY<UUID>, su STRUCT<x: UUID, y: FIXED(16)>) PARTITIONED BY ("+spec+")")
		for i, u := range uuids {
			mustExec(t, db, fmt.Sprintf("INSERT INTO lake.%s VALUES (%d, '%s', '%016d', ARRAY('%s', NULL), named_struct('x', '%s', 'y', '%016d'))",
				name, i, strings.ToUpper(u), i, u, u, i))
		}
		mustExec(t, db, "INSERT INTO lake."+name+" VALUES (9, NULL, NULL, NULL, NULL)")
	}
	want := []string{"id=9 u=NULL f=NULL lu=NULL su=NULL"}
	for i, u := range uuids {
		f := hex.EncodeToString([]byte(fmt.Sprintf("%016d", i)))
		want = append(want, fmt.Sprintf("id=%d u=%s f=%s lu=[%s NULL] su={x=%s y=%s}", i, u, f, u, u, f))
	}
	slices.Sort(want)

	goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	for _, name := range []string{"by_bucket", "by_identity"} {
		t.Run(name, func(t *testing.T) {
			goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, name))
			sc := goTbl.Schema()
			if f, _ := sc.FindFieldByName("u"); !f.Type.Equals(goiceberg.PrimitiveTypes.UUID) {
				t.Fatalf("iceberg-go sees u as %v", f.Type)
			}
			if f, _ := sc.FindFieldByName("f"); !f.Type.Equals(goiceberg.FixedTypeOf(16)) {
				t.Fatalf("iceberg-go sees f as %v", f.Type)
			}
			if got := goUUIDRows(t, goTbl); !slices.Equal(got, want) {
				t.Fatalf("iceberg-go read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// partition values as iceberg-go's own transform computes them
			tasks, err := goTbl.Scan().PlanFiles(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(tasks) != 4 {
				t.Fatalf("iceberg-go plans %d files, want 4 (one per INSERT)", len(tasks))
			}
			spec := goTbl.Spec()
			pf := spec.Field(0)
			tr := pf.Transform
			for _, task := range tasks {
				got := task.File.Partition()[pf.FieldID]
				lower := task.File.LowerBoundValues()[2]
				var wantPart any
				if lower != nil {
					u, err := uuid.FromBytes(lower)
					if err != nil {
						t.Fatal(err)
					}
					wantPart = tr.Apply(goiceberg.Optional[goiceberg.Literal]{Valid: true, Val: goiceberg.NewLiteral(u)}).Val.Any()
				}
				if task.File.Count() == 1 && fmt.Sprint(got) != fmt.Sprint(wantPart) {
					t.Errorf("file %s: partition %v, iceberg-go's %s gives %v", task.File.FilePath(), got, tr, wantPart)
				}
			}
			// a filtered scan prunes by icesql's partition values and bounds
			u := uuid.MustParse(uuids[1])
			filtered := goTbl.Scan(gotable.WithRowFilter(goiceberg.EqualTo(goiceberg.Reference("u"), u)))
			ftasks, err := filtered.PlanFiles(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(ftasks) != 1 {
				t.Fatalf("u = %s plans %d files, want 1", u, len(ftasks))
			}
			var id int64
			if err := db.QueryRow("SELECT id FROM lake."+name+" WHERE u = ?", uuids[1]).Scan(&id); err != nil || id != 1 {
				t.Fatalf("SQL filter gave id %d (err %v), want 1", id, err)
			}
		})
	}
}

// goUUIDRows reads the table with iceberg-go and renders each row: uuids
// as text (and only from Arrow's uuid type), fixed values as hex (and only
// from FixedSizeBinary(16)).
func goUUIDRows(t *testing.T, tbl *gotable.Table) []string {
	t.Helper()
	at, err := tbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	var rows []string
	forEachRecord(at, func(rec arrow.RecordBatch) {
		for i := 0; i < int(rec.NumRows()); i++ {
			parts := make([]string, rec.NumCols())
			for c := range parts {
				parts[c] = rec.ColumnName(c) + "=" + goUUIDValue(t, rec.Column(c), i)
			}
			rows = append(rows, strings.Join(parts, " "))
		}
	})
	slices.Sort(rows)
	return rows
}

func goUUIDValue(t *testing.T, a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	switch x := a.(type) {
	case *extensions.UUIDArray:
		return x.Value(i).String()
	case *array.FixedSizeBinary:
		if x.DataType().(*arrow.FixedSizeBinaryType).ByteWidth != 16 {
			t.Fatalf("fixed width %v", x.DataType())
		}
		return hex.EncodeToString(x.Value(i))
	case *array.Int64:
		return fmt.Sprint(x.Value(i))
	case array.ListLike:
		start, end := x.ValueOffsets(i)
		var parts []string
		for j := start; j < end; j++ {
			parts = append(parts, goUUIDValue(t, x.ListValues(), int(j)))
		}
		return "[" + strings.Join(parts, " ") + "]"
	case *array.Struct:
		st := x.DataType().(*arrow.StructType)
		parts := make([]string, x.NumField())
		for f := range parts {
			parts[f] = st.Field(f).Name + "=" + goUUIDValue(t, x.Field(f), i)
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	t.Fatalf("unexpected Arrow type %v from iceberg-go", a.DataType())
	return ""
}
