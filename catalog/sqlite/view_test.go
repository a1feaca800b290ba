package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func mustCreateView(t *testing.T, c *Catalog, id, loc string) Identifier {
	t.Helper()
	v := ident(t, id)
	if err := c.CreateView(context.Background(), v, loc); err != nil {
		t.Fatalf("CreateView %s: %v", id, err)
	}
	return v
}

func TestCreateAndLoadView(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	mustCreateTable(t, c, "db.t", "tm")
	mustCreateView(t, c, "db.existing", "vm")
	tests := []struct {
		name string
		id   Identifier
		loc  string
		want error
	}{
		{"create", ident(t, "db.v"), "m1", nil},
		{"view exists", ident(t, "db.existing"), "m1", iceberg.ErrViewAlreadyExists},
		{"table exists", ident(t, "db.t"), "m1", iceberg.ErrTableAlreadyExists},
		{"no namespace", ident(t, "nope.v"), "m1", iceberg.ErrNoSuchNamespace},
		{"empty location", ident(t, "db.e"), "", ErrInvalidArgument},
		{"empty name", Identifier{Namespace: []string{"db"}, Name: ""}, "m1", ErrInvalidIdentifier},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.CreateView(ctx, tt.id, tt.loc)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if tt.want != nil {
				return
			}
			rec, err := c.LoadView(ctx, tt.id)
			if err != nil || rec != (ViewRecord{MetadataLocation: tt.loc}) {
				t.Fatalf("LoadView = %+v, %v", rec, err)
			}
		})
	}
	var typ string
	if err := c.reader().QueryRow("SELECT iceberg_type FROM iceberg_tables WHERE table_name = 'v'").Scan(&typ); err != nil || typ != "VIEW" {
		t.Fatalf("iceberg_type = %q, %v; want VIEW", typ, err)
	}
}

// TestTablesAndViewsDoNotSeeEachOther checks every table operation skips
// view rows and every view operation skips table rows (including a V0
// table row whose iceberg_type is NULL).
func TestTablesAndViewsDoNotSeeEachOther(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	tbl := mustCreateTable(t, c, "db.t", "tm")
	if _, err := c.cur.Load().write.Exec("INSERT INTO iceberg_tables VALUES ('default', 'db', 'legacy', 'lm', NULL, NULL)"); err != nil {
		t.Fatal(err)
	}
	legacy := ident(t, "db.legacy")
	view := mustCreateView(t, c, "db.v", "vm")

	checks := []struct {
		name string
		run  func() error
		want error
	}{
		{"LoadTable of view", func() error { _, err := c.LoadTable(ctx, view); return err }, iceberg.ErrNoSuchTable},
		{"LoadView of table", func() error { _, err := c.LoadView(ctx, tbl); return err }, iceberg.ErrNoSuchView},
		{"LoadView of legacy table", func() error { _, err := c.LoadView(ctx, legacy); return err }, iceberg.ErrNoSuchView},
		{"CommitTable of view", func() error { return c.CommitTable(ctx, view, "vm", "x") }, iceberg.ErrCommitFailed},
		{"CommitView of table", func() error { return c.CommitView(ctx, tbl, "tm", "x") }, iceberg.ErrCommitFailed},
		{"CommitView of legacy table", func() error { return c.CommitView(ctx, legacy, "lm", "x") }, iceberg.ErrCommitFailed},
		{"DropView of table", func() error { _, err := c.DropView(ctx, tbl); return err }, iceberg.ErrNoSuchView},
		{"RenameView of table", func() error { return c.RenameView(ctx, tbl, ident(t, "db.t2")) }, iceberg.ErrNoSuchView},
		{"RenameTable of view", func() error { return c.RenameTable(ctx, view, ident(t, "db.v2")) }, iceberg.ErrNoSuchTable},
		{"RenameTable onto view", func() error { return c.RenameTable(ctx, tbl, view) }, iceberg.ErrTableAlreadyExists},
		{"RenameView onto table", func() error { return c.RenameView(ctx, view, tbl) }, iceberg.ErrTableAlreadyExists},
		{"RenameView onto legacy table", func() error { return c.RenameView(ctx, view, legacy) }, iceberg.ErrTableAlreadyExists},
	}
	for _, ch := range checks {
		t.Run(ch.name, func(t *testing.T) {
			if err := ch.run(); !errors.Is(err, ch.want) {
				t.Fatalf("err = %v, want %v", err, ch.want)
			}
		})
	}
	// DROP TABLE of a view name deletes nothing.
	if _, err := c.DropTable(ctx, view); err == nil {
		t.Fatal("DropTable of a view succeeded")
	}
	if ok, err := c.ViewExists(ctx, view); !ok || err != nil {
		t.Fatalf("view gone after DropTable: %v, %v", ok, err)
	}
	if ok, err := c.TableExists(ctx, view); ok || err != nil {
		t.Fatalf("TableExists(view) = %v, %v", ok, err)
	}
	tables, err := c.ListTables(ctx, []string{"db"})
	if err != nil {
		t.Fatal(err)
	}
	views, err := c.ListViews(ctx, []string{"db"})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(tables); !reflect.DeepEqual(got, []string{"legacy", "t"}) {
		t.Fatalf("ListTables = %v", got)
	}
	if got := names(views); !reflect.DeepEqual(got, []string{"v"}) {
		t.Fatalf("ListViews = %v", got)
	}
	all, err := c.AllTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := all["db.v"]; ok {
		t.Fatalf("AllTables includes the view: %v", all)
	}
	if err := c.DropNamespace(ctx, []string{"db"}); !errors.Is(err, iceberg.ErrNamespaceNotEmpty) {
		t.Fatalf("DropNamespace with a view: %v", err)
	}
}

func names(ids []Identifier) []string {
	out := []string{}
	for _, id := range ids {
		out = append(out, id.Name)
	}
	return out
}

func TestCommitView(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	v := mustCreateView(t, c, "db.v", "m1")
	steps := []struct {
		name             string
		expected, newLoc string
		want             error
		wantRec          ViewRecord
	}{
		{"swap", "m1", "m2", nil, ViewRecord{MetadataLocation: "m2", PreviousMetadataLocation: "m1"}},
		{"stale", "m1", "m3", iceberg.ErrCommitFailed, ViewRecord{MetadataLocation: "m2", PreviousMetadataLocation: "m1"}},
		{"swap again", "m2", "m3", nil, ViewRecord{MetadataLocation: "m3", PreviousMetadataLocation: "m2"}},
		{"empty", "", "m4", ErrInvalidArgument, ViewRecord{MetadataLocation: "m3", PreviousMetadataLocation: "m2"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			err := c.CommitView(ctx, v, s.expected, s.newLoc)
			if !errors.Is(err, s.want) || (s.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, s.want)
			}
			rec, err := c.LoadView(ctx, v)
			if err != nil || rec != s.wantRec {
				t.Fatalf("LoadView = %+v, %v; want %+v", rec, err, s.wantRec)
			}
		})
	}
	if err := c.CommitView(ctx, ident(t, "db.gone"), "m1", "m2"); !errors.Is(err, iceberg.ErrCommitFailed) {
		t.Fatalf("commit of a missing view: %v", err)
	}
}

func TestRenameAndDropView(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	mustCreateNamespace(t, c, "other")
	v := mustCreateView(t, c, "db.v", "m1")
	mustCreateView(t, c, "db.w", "mw")
	tests := []struct {
		name     string
		from, to string
		want     error
	}{
		{"onto view", "db.v", "db.w", iceberg.ErrViewAlreadyExists},
		{"missing namespace", "db.v", "nope.v", iceberg.ErrNoSuchNamespace},
		{"missing source", "db.x", "db.y", iceberg.ErrNoSuchView},
		{"same name", "db.v", "db.v", nil},
		{"across namespaces", "db.v", "other.v2", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.RenameView(ctx, ident(t, tt.from), ident(t, tt.to))
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := c.LoadView(ctx, v); !errors.Is(err, iceberg.ErrNoSuchView) {
		t.Fatalf("old name still loads: %v", err)
	}
	rec, err := c.DropView(ctx, ident(t, "other.v2"))
	if err != nil || rec.MetadataLocation != "m1" {
		t.Fatalf("DropView = %+v, %v", rec, err)
	}
	if _, err := c.DropView(ctx, ident(t, "other.v2")); !errors.Is(err, iceberg.ErrNoSuchView) {
		t.Fatalf("second DropView: %v", err)
	}
}

// TestViewsOnV0Catalog: a catalog without iceberg_type (PyIceberg, Java
// V0) has no views and refuses to create them.
func TestViewsOnV0Catalog(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v0.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, ddl := range foreignDDL["pyiceberg"] {
		if _, err := db.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	c, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mustCreateNamespace(t, c, "db")
	if c.SupportsViews() {
		t.Fatal("V0 catalog reports view support")
	}
	v := ident(t, "db.v")
	if err := c.CreateView(ctx, v, "m"); !errors.Is(err, ErrViewsUnsupported) {
		t.Fatalf("CreateView: %v", err)
	}
	if _, err := c.LoadView(ctx, v); !errors.Is(err, iceberg.ErrNoSuchView) {
		t.Fatalf("LoadView: %v", err)
	}
	if ok, err := c.ViewExists(ctx, v); ok || err != nil {
		t.Fatalf("ViewExists: %v, %v", ok, err)
	}
	if vs, err := c.ListViews(ctx, []string{"db"}); len(vs) != 0 || err != nil {
		t.Fatalf("ListViews: %v, %v", vs, err)
	}
}
