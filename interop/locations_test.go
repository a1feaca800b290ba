package interop

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	goiceberg "github.com/apache/iceberg-go"
	goio "github.com/apache/iceberg-go/io"
	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
)

// TestIcebergGoLocationForms states the behaviour icesql's location form
// rests on: iceberg-go percent-decodes a file: URI (Java, Spark and
// PyIceberg do not), so it misses a Java-escaped partition directory named
// by one, and takes a plain absolute path literally, as they all do.
func TestIcebergGoLocationForms(t *testing.T) {
	dir := filepath.ToSlash(t.TempDir())
	if err := os.MkdirAll(dir+"/s=d%C3%A9lta", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/s=d%C3%A9lta/f", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := goio.LoadFS(context.Background(), nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := fsys.Open("file://" + dir + "/s=d%C3%A9lta/f"); err == nil {
		f.Close()
		t.Fatal("iceberg-go now reads file: URIs literally; plain-path locations are no longer needed for it")
	}
	f, err := fsys.Open(dir + "/s=d%C3%A9lta/f")
	if err != nil {
		t.Fatalf("iceberg-go does not read a plain path literally: %v", err)
	}
	f.Close()
}

// TestLocationsSharedWithIcebergGo: partition values that need escaping
// (unicode, '/', '=', '..') in a warehouse whose path holds a space, in a
// table created by either side. iceberg-go's own files are where its
// percent-encoded file: locations decode to; icesql's are under plain
// paths, Java-escaped, beside them. Both read every row, and every data
// file lies inside the table's directory.
func TestLocationsSharedWithIcebergGo(t *testing.T) {
	values := []string{"délta", "a/b=c", "../x", "..", "sp ace"}
	for _, creator := range []string{"icesql", "iceberg-go"} {
		t.Run("created by "+creator, func(t *testing.T) {
			ctx := context.Background()
			dir := filepath.Join(t.TempDir(), "wh dir")
			catFile := filepath.Join(dir, "catalog.db")
			db, err := sql.Open("iceberg", dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("CREATE NAMESPACE ns"); err != nil {
				t.Fatal(err)
			}
			goCat := openGoCatalog(t, catFile, dir)
			ident := goIdent([]string{"ns"}, "t")
			schema, err := iceberg.NewSchema(0, []iceberg.NestedField{
				{ID: 1, Name: "id", Type: iceberg.LongType{}},
				{ID: 2, Name: "s", Type: iceberg.StringType{}},
			})
			if err != nil {
				t.Fatal(err)
			}
			if creator == "icesql" {
				if _, err := db.Exec("CREATE TABLE ns.t (id BIGINT, s STRING) PARTITIONED BY (s)"); err != nil {
					t.Fatal(err)
				}
			} else {
				gs := goSchema(t, schema)
				spec := goiceberg.NewPartitionSpec(goiceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "s", Transform: goiceberg.IdentityTransform{}})
				goCreateTable(t, goCat, dir, ident, gs, &spec, nil)
			}
			var want []string
			for i, v := range values {
				if _, err := db.Exec("INSERT INTO ns.t VALUES (?, ?)", int64(i), v); err != nil {
					t.Fatal(err)
				}
				want = append(want, fmt.Sprintf("id=l%d | s=%s", i, strconv.Quote(v)))
			}
			sc := arrow.NewSchema([]arrow.Field{
				{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true, Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"1"})},
				{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true, Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"2"})},
			}, nil)
			b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			for i, v := range values {
				b.Field(0).(*array.Int64Builder).Append(int64(100 + i))
				b.Field(1).(*array.StringBuilder).Append(v)
				want = append(want, fmt.Sprintf("id=l%d | s=%s", 100+i, strconv.Quote(v)))
			}
			rec := b.NewRecordBatch()
			b.Release()
			goAppend(t, goLoad(t, goCat, ident), rec)
			rec.Release()
			if _, err := db.Exec("INSERT INTO ns.t VALUES (200, 'délta'), (201, 'a/b=c')"); err != nil {
				t.Fatal(err)
			}
			want = append(want, `id=l200 | s="délta"`, `id=l201 | s="a/b=c"`)
			want = sortRows(want)

			requireSameRows(t, "written", want, "iceberg-go reads", goRows(t, goLoad(t, goCat, ident)))
			var got []string
			rows, err := db.QueryContext(ctx, "SELECT id, s FROM ns.t")
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				var s string
				if err := rows.Scan(&id, &s); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("id=l%d | s=%s", id, strconv.Quote(s)))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			rows.Close()
			requireSameRows(t, "written", want, "icesql reads", sortRows(got))

			tableDir := filepath.Join(dir, "ns", "t")
			if creator == "icesql" {
				tableDir = filepath.Join(dir, "ns.db", "t")
			}
			files, err := db.QueryContext(ctx, "SELECT file_path FROM ns.t.files")
			if err != nil {
				t.Fatal(err)
			}
			defer files.Close()
			for files.Next() {
				var loc string
				if err := files.Scan(&loc); err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(loc, "file:") {
					// iceberg-go's: where its percent-decoding puts them
					// (partition values as extra levels), inside the table
					u, err := url.Parse(loc)
					if err != nil {
						t.Fatal(err)
					}
					if rel, err := filepath.Rel(tableDir, filepath.FromSlash(u.Path)); err != nil || strings.HasPrefix(rel, "..") {
						t.Fatalf("iceberg-go's file %q is outside the table directory %q", u.Path, tableDir)
					}
					continue
				}
				// icesql's: a plain path, literal, one partition level below data/
				p := filepath.FromSlash(loc)
				if _, err := os.Stat(p); err != nil {
					t.Fatalf("location %q names no file as a literal path: %v", loc, err)
				}
				rel, err := filepath.Rel(filepath.Join(tableDir, "data"), p)
				if err != nil || strings.HasPrefix(rel, "..") || strings.Count(rel, string(filepath.Separator)) != 1 {
					t.Fatalf("file %q is not one partition level below the table's data directory %q", p, tableDir)
				}
			}
			if err := files.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
