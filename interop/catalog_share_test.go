package interop

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// TestCatalogSharing: one catalog file, created by either side; the other
// side opens it, both alternate appends on one table, and both then read
// the same rows, snapshots and metadata pointer.
func TestCatalogSharing(t *testing.T) {
	for _, creator := range []string{"icesql", "iceberg-go"} {
		t.Run("created by "+creator, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			catFile := filepath.Join(dir, "catalog.db")
			ident := table.Identifier{Namespace: []string{"shared"}, Name: "events"}
			gIdent := goIdent(ident.Namespace, ident.Name)
			nsProps := map[string]string{"owner": "interop", "comment": "créé"}

			var ice *iceSide
			switch creator {
			case "icesql":
				ice = openIce(t, catFile, dir, false)
				if err := ice.cat.CreateNamespace(ctx, ident.Namespace, nsProps); err != nil {
					t.Fatal(err)
				}
				partitionedNestedTable(t, ice, ident)
			default:
				goCat := openGoCatalog(t, catFile, dir)
				if err := goCat.CreateNamespace(ctx, gIdent[:1], nsProps); err != nil {
					t.Fatal(err)
				}
				gs := goSchema(t, nestedSchema(t))
				goCreateTable(t, goCat, dir, gIdent, gs, nestedGoSpec(gs), nil)
				ice = openIce(t, catFile, dir, false)
			}
			goCat := openGoCatalog(t, catFile, dir)

			t.Run("namespaces and tables", func(t *testing.T) {
				goNS, err := goCat.ListNamespaces(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(goNS) != 1 || !slices.Equal(goNS[0], ident.Namespace) {
					t.Fatalf("iceberg-go lists namespaces %v", goNS)
				}
				iceNS, err := ice.cat.ListNamespaces(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(iceNS) != 1 || !slices.Equal(iceNS[0], ident.Namespace) {
					t.Fatalf("icesql lists namespaces %v", iceNS)
				}
				goProps, err := goCat.LoadNamespaceProperties(ctx, gIdent[:1])
				if err != nil {
					t.Fatal(err)
				}
				iceProps, err := ice.cat.LoadNamespaceProperties(ctx, ident.Namespace)
				if err != nil {
					t.Fatal(err)
				}
				for k, v := range nsProps {
					if goProps[k] != v || iceProps[k] != v {
						t.Errorf("property %s: iceberg-go %q, icesql %q, want %q", k, goProps[k], iceProps[k], v)
					}
				}
				var goTables []string
				for id, err := range goCat.ListTables(ctx, gIdent[:1]) {
					if err != nil {
						t.Fatal(err)
					}
					goTables = append(goTables, id[len(id)-1])
				}
				iceTables, err := ice.cat.ListTables(ctx, ident.Namespace)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(goTables, []string{"events"}) || len(iceTables) != 1 || iceTables[0].Name != "events" {
					t.Fatalf("tables: iceberg-go %v, icesql %v", goTables, iceTables)
				}
			})

			sc := arrowOf(t, ice.load(t, ident).Schema())
			const rounds, per = 3, 40
			next := 0
			for round := range rounds {
				rec := buildRecord(t, sc, nestedRows(next, next+per))
				if _, err := iceAppend(ctx, ice.load(t, ident), rec); err != nil {
					t.Fatalf("round %d: icesql append: %v", round, err)
				}
				rec.Release()
				next += per
				rec = buildRecord(t, sc, nestedRows(next, next+per))
				goAppend(t, goLoad(t, goCat, gIdent), rec)
				rec.Release()
				next += per
			}
			want := expectedRows(t, sc, nestedRows(0, next))

			iceTbl := ice.load(t, ident)
			goTbl := goLoad(t, goCat, gIdent)
			t.Run("same pointer and snapshots", func(t *testing.T) {
				if iceTbl.MetadataLocation() != goTbl.MetadataLocation() {
					t.Fatalf("metadata location: icesql %s, iceberg-go %s", iceTbl.MetadataLocation(), goTbl.MetadataLocation())
				}
				if got, gotGo := len(iceTbl.Metadata().Snapshots()), len(goTbl.Metadata().Snapshots()); got != 2*rounds || gotGo != 2*rounds {
					t.Fatalf("snapshots: icesql %d, iceberg-go %d, want %d", got, gotGo, 2*rounds)
				}
				if a, b := iceTbl.Metadata().CurrentSnapshotID(), goTbl.CurrentSnapshot().SnapshotID; a != b {
					t.Fatalf("current snapshot: icesql %d, iceberg-go %d", a, b)
				}
				if got := iceTbl.Metadata().CurrentSnapshot().Summary["total-records"]; got != strconv.Itoa(next) {
					t.Fatalf("total-records %q, want %d", got, next)
				}
				requireSequenceChain(t, iceTbl.Metadata())
			})
			t.Run("icesql reads", func(t *testing.T) {
				requireSameRows(t, "appended", want, "icesql", iceRows(t, iceTbl))
			})
			t.Run("iceberg-go reads", func(t *testing.T) {
				requireSameRows(t, "appended", want, "iceberg-go", goRows(t, goTbl))
			})
		})
	}
}

// requireSequenceChain checks that the alternating writers produced one
// linear history: each snapshot's parent is the previous one and sequence
// numbers grow by one.
func requireSequenceChain(tb testing.TB, m *iceberg.TableMetadata) {
	tb.Helper()
	var prev *iceberg.Snapshot
	for s := range m.Ancestors(m.CurrentSnapshotID()) {
		if prev != nil {
			if prev.ParentSnapshotID == nil || *prev.ParentSnapshotID != s.SnapshotID {
				tb.Fatalf("snapshot %d: parent %v, want %d", prev.SnapshotID, prev.ParentSnapshotID, s.SnapshotID)
			}
			if prev.SequenceNumber != s.SequenceNumber+1 {
				tb.Fatalf("snapshot %d: sequence %d after %d", prev.SnapshotID, prev.SequenceNumber, s.SequenceNumber)
			}
		}
		prev = s
	}
}
