package interop

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	goiceberg "github.com/apache/iceberg-go"
	gocatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/catalogtest"
	gorest "github.com/apache/iceberg-go/catalog/rest"
	gotable "github.com/apache/iceberg-go/table"

	"github.com/icesql/icesql/catalog/sqlite"
	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/server/rest"
)

// restServer is icesql's REST catalog over a SQLite catalog in a local
// warehouse, on an httptest server bound to 127.0.0.1.
type restServer struct {
	url       string
	warehouse string // directory; its catalog.db is the SQLite catalog
}

func startRESTServer(t testing.TB, opts rest.Options) *restServer {
	t.Helper()
	wh := filepath.Join(t.TempDir(), "wh")
	if err := os.MkdirAll(wh, 0o755); err != nil {
		t.Fatal(err)
	}
	cat, err := sqlite.Open(context.Background(), filepath.Join(wh, "catalog.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if opts.Warehouse, err = fileio.LocalURI(wh); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(rest.New(cat, &fileio.Local{}, opts))
	t.Cleanup(hs.Close)
	return &restServer{url: hs.URL, warehouse: wh}
}

func goRESTCatalog(t testing.TB, url string, opts ...gorest.Option) *gorest.Catalog {
	t.Helper()
	cat, err := gorest.NewCatalog(context.Background(), "icesql", url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

var restArrowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: false},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

func restRecord(from, to int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, restArrowSchema)
	defer b.Release()
	for i := from; i < to; i++ {
		b.Field(0).(*array.Int64Builder).Append(i)
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("n%d", i))
	}
	return b.NewRecordBatch()
}

func restGoSchema() *goiceberg.Schema {
	return goiceberg.NewSchema(0,
		goiceberg.NestedField{ID: 1, Name: "id", Type: goiceberg.PrimitiveTypes.Int64, Required: true},
		goiceberg.NestedField{ID: 2, Name: "name", Type: goiceberg.PrimitiveTypes.String})
}

func sqlCount(t testing.TB, db *sql.DB, query string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestRESTIcebergGoClient: iceberg-go's REST client creates, appends,
// deletes, evolves and reads through icesql's REST server, commits a
// multi-table transaction, and icesql reads what it wrote from the catalog
// behind the server.
func TestRESTIcebergGoClient(t *testing.T) {
	ctx := context.Background()
	srv := startRESTServer(t, rest.Options{})
	cat := goRESTCatalog(t, srv.url)
	if err := cat.CreateNamespace(ctx, gotable.Identifier{"db"}, goiceberg.Properties{"owner": "go"}); err != nil {
		t.Fatal(err)
	}
	ident := gotable.Identifier{"db", "events"}
	tbl, err := cat.CreateTable(ctx, ident, restGoSchema(),
		gocatalog.WithProperties(goiceberg.Properties{gotable.WriteDeleteModeKey: gotable.WriteModeMergeOnRead}))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range [][2]int64{{0, 100}, {100, 250}} {
		rec := restRecord(part[0], part[1])
		tbl = goAppend(t, tbl, rec)
		rec.Release()
	}
	tx := tbl.NewTransaction()
	if err := tx.Delete(ctx, goiceberg.LessThan(goiceberg.Reference("id"), int64(10)), nil); err != nil {
		t.Fatal(err)
	}
	if tbl, err = tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	tx = tbl.NewTransaction()
	if err := tx.UpdateSchema(true, false).AddColumn([]string{"score"}, goiceberg.PrimitiveTypes.Float64, "", false, nil).Commit(); err != nil {
		t.Fatal(err)
	}
	if tbl, err = tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	loaded := goLoad(t, cat, ident)
	if n := len(goRows(t, loaded)); n != 240 {
		t.Fatalf("iceberg-go reads %d rows through REST, want 240", n)
	}
	if _, ok := loaded.Schema().FindFieldByName("score"); !ok {
		t.Fatal("schema evolution was not committed")
	}

	db, err := sql.Open("iceberg", srv.warehouse)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := sqlCount(t, db, "SELECT count(*) FROM db.events"); n != 240 {
		t.Fatalf("icesql reads %d rows, want 240", n)
	}
	if n := sqlCount(t, db, "SELECT count(*) FROM db.events WHERE score IS NULL AND id >= 10"); n != 240 {
		t.Fatalf("icesql sees the evolved schema: %d rows", n)
	}
	// icesql writes, iceberg-go reads through REST.
	if _, err := db.Exec("INSERT INTO db.events VALUES (1000, 'sql', 1.5)"); err != nil {
		t.Fatal(err)
	}
	if n := len(goRows(t, goLoad(t, cat, ident))); n != 241 {
		t.Fatalf("iceberg-go reads %d rows after icesql's insert, want 241", n)
	}

	t.Run("multi-table transaction", func(t *testing.T) {
		other, err := cat.CreateTable(ctx, gotable.Identifier{"db", "other"}, restGoSchema())
		if err != nil {
			t.Fatal(err)
		}
		a := goLoad(t, cat, ident).NewTransaction()
		if err := a.SetProperties(goiceberg.Properties{"batch": "7"}); err != nil {
			t.Fatal(err)
		}
		rec := restRecord(0, 5)
		defer rec.Release()
		b := other.NewTransaction()
		rdr := recordReader(t, rec)
		defer rdr.Release()
		if err := b.Append(ctx, rdr, nil); err != nil {
			t.Fatal(err)
		}
		mt, err := gocatalog.NewMultiTableTransaction(cat)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []*gotable.Transaction{a, b} {
			if err := mt.AddTransaction(x); err != nil {
				t.Fatal(err)
			}
		}
		if err := mt.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if got := goLoad(t, cat, ident).Properties()["batch"]; got != "7" {
			t.Fatalf("property not committed: %q", got)
		}
		if n := sqlCount(t, db, "SELECT count(*) FROM db.other"); n != 5 {
			t.Fatalf("other has %d rows, want 5", n)
		}
	})

	t.Run("rename, list, drop", func(t *testing.T) {
		if _, err := cat.RenameTable(ctx, gotable.Identifier{"db", "other"}, gotable.Identifier{"db", "renamed"}); err != nil {
			t.Fatal(err)
		}
		var names []string
		for id, err := range cat.ListTables(ctx, gotable.Identifier{"db"}) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, id[len(id)-1])
		}
		if fmt.Sprint(names) != "[events renamed]" {
			t.Fatalf("tables %v", names)
		}
		if err := cat.DropTable(ctx, gotable.Identifier{"db", "renamed"}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.LoadTable(ctx, gotable.Identifier{"db", "renamed"}); !errors.Is(err, gocatalog.ErrNoSuchTable) {
			t.Fatalf("dropped table loads: %v", err)
		}
	})
}

// TestRESTConcurrentIcebergGoWriters: several iceberg-go clients append
// to one table through one server at once; every append that reports
// success is in the table, and the failures are clean commit conflicts.
func TestRESTConcurrentIcebergGoWriters(t *testing.T) {
	ctx := context.Background()
	srv := startRESTServer(t, rest.Options{})
	cat := goRESTCatalog(t, srv.url)
	if err := cat.CreateNamespace(ctx, gotable.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	ident := gotable.Identifier{"db", "t"}
	if _, err := cat.CreateTable(ctx, ident, restGoSchema()); err != nil {
		t.Fatal(err)
	}
	const writers, each = 4, 5
	var mu sync.Mutex
	committed := int64(0)
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := goRESTCatalog(t, srv.url)
			for i := 0; i < each; i++ {
				for {
					tbl, err := c.LoadTable(ctx, ident)
					if err != nil {
						t.Error(err)
						return
					}
					base := int64(w*1000 + i*10)
					rec := restRecord(base, base+10)
					rdr, err := array.NewRecordReader(restArrowSchema, []arrow.RecordBatch{rec})
					rec.Release()
					if err != nil {
						t.Error(err)
						return
					}
					_, err = tbl.Append(ctx, rdr, nil)
					rdr.Release()
					if err == nil {
						mu.Lock()
						committed += 10
						mu.Unlock()
						break
					}
					if !errors.Is(err, gorest.ErrCommitFailed) {
						t.Errorf("writer %d: %v", w, err)
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	db, err := sql.Open("iceberg", srv.warehouse)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := sqlCount(t, db, "SELECT count(*) FROM db.t"); n != committed || n != writers*each*10 {
		t.Fatalf("table has %d rows, writers committed %d (want %d)", n, committed, writers*each*10)
	}
	if n := sqlCount(t, db, "SELECT count(DISTINCT id) FROM db.t"); n != committed {
		t.Fatalf("%d distinct ids for %d rows", n, committed)
	}
}

// TestRESTCatalogConformance runs iceberg-go's catalog conformance suite
// against icesql's REST server.
func TestRESTCatalogConformance(t *testing.T) {
	catalogtest.RunCatalogTests(t, catalogtest.Config{
		SupportsNamespaceProperties: true,
		NewCatalog: func(t *testing.T) gocatalog.Catalog {
			return goRESTCatalog(t, startRESTServer(t, rest.Options{}).url)
		},
	})
}
