package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/restapi"
)

// withSnapshots makes default.t hold n snapshots: one real append, then
// n-1 more snapshots sharing its manifest list, written straight into the
// metadata (building them by n appends would dominate the benchmark).
func withSnapshots(b *testing.B, s *served, n int) {
	b.Helper()
	ctx := context.Background()
	db, err := sql.Open("iceberg", s.dir)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	exec(b, db, "CREATE TABLE t (i INT)", "INSERT INTO t VALUES (0)")
	cat, err := sqlite.Open(ctx, filepath.Join(s.dir, "catalog.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	id := catalog.Identifier{Namespace: []string{"default"}, Name: "t"}
	rec, err := cat.LoadTable(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	meta, err := table.ReadMetadata(ctx, &fileio.Local{}, rec.MetadataLocation)
	if err != nil {
		b.Fatal(err)
	}
	bld := iceberg.NewMetadataBuilder(meta)
	head := meta.CurrentSnapshot()
	for i := 1; i < n; i++ {
		parent := head.SnapshotID
		snap := *head
		snap.SnapshotID, snap.ParentSnapshotID = head.SnapshotID+1, &parent
		snap.SequenceNumber, snap.TimestampMs = head.SequenceNumber+1, head.TimestampMs+1
		if err := bld.AddSnapshot(&snap); err != nil {
			b.Fatal(err)
		}
		head = &snap
	}
	if err := bld.SetSnapshotRef(iceberg.MainBranch, iceberg.NewBranch(head.SnapshotID)); err != nil {
		b.Fatal(err)
	}
	bld.SetPreviousMetadataFile(rec.MetadataLocation)
	next, err := bld.Build()
	if err != nil {
		b.Fatal(err)
	}
	loc, err := table.WriteMetadata(ctx, &table.Env{IO: &fileio.Local{}}, next, rec.MetadataLocation)
	if err != nil {
		b.Fatal(err)
	}
	if err := cat.CommitTable(ctx, id, rec.MetadataLocation, loc); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCommit is a one-row INSERT (one commit) through the driver,
// with the catalog direct (SQLite) or through the REST server.
func BenchmarkCommit(b *testing.B) {
	for _, n := range []int{10, 10000} {
		for _, via := range []string{"sqlite", "rest"} {
			b.Run(fmt.Sprintf("snapshots=%d/%s", n, via), func(b *testing.B) {
				s := serve(b, restOptions())
				withSnapshots(b, s, n)
				dsn := s.dir
				if via == "rest" {
					dsn += "?catalog_uri=" + url.QueryEscape(s.url)
				}
				db, err := sql.Open("iceberg", dsn)
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				exec(b, db, "INSERT INTO t VALUES (1)") // warm caches
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := db.Exec("INSERT INTO t VALUES (2)"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLoadTable gets a table's parsed metadata: the SQLite pointer
// plus metadata.json, or GET .../tables/t from the REST server (as other
// engines load a table).
func BenchmarkLoadTable(b *testing.B) {
	ctx := context.Background()
	id := catalog.Identifier{Namespace: []string{"default"}, Name: "t"}
	for _, n := range []int{10, 10000} {
		s := serve(b, restOptions())
		withSnapshots(b, s, n)
		b.Run(fmt.Sprintf("snapshots=%d/sqlite", n), func(b *testing.B) {
			cat, err := sqlite.Open(ctx, filepath.Join(s.dir, "catalog.db"), sqlite.Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			defer cat.Close()
			for i := 0; i < b.N; i++ {
				rec, err := cat.LoadTable(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := table.ReadMetadata(ctx, &fileio.Local{}, rec.MetadataLocation); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("snapshots=%d/rest", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				resp, err := http.Get(s.url + "/v1/namespaces/default/tables/t")
				if err != nil {
					b.Fatal(err)
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					b.Fatalf("%d %v", resp.StatusCode, err)
				}
				var res restapi.LoadTableResult
				if err := jsonUnmarshal(body, &res); err != nil {
					b.Fatal(err)
				}
				if _, err := iceberg.ParseMetadata(res.Metadata); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
