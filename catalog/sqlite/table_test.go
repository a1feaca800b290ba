package sqlite

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestCreateAndLoadTable(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	mustCreateTable(t, c, "db.existing", "m0")
	if _, err := c.cur.Load().write.Exec("INSERT INTO iceberg_tables VALUES ('default', 'db', 'v', 'view-meta', NULL, 'VIEW')"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		id       Identifier
		location string
		register bool
		want     error
	}{
		{"create", Identifier{Namespace: []string{"db"}, Name: "t"}, "m1", false, nil},
		{"register", Identifier{Namespace: []string{"db"}, Name: "r"}, "m1", true, nil},
		{"exists", Identifier{Namespace: []string{"db"}, Name: "existing"}, "m1", false, iceberg.ErrTableAlreadyExists},
		{"register over existing", Identifier{Namespace: []string{"db"}, Name: "existing"}, "m1", true, iceberg.ErrTableAlreadyExists},
		{"clashes with view", Identifier{Namespace: []string{"db"}, Name: "v"}, "m1", false, iceberg.ErrTableAlreadyExists},
		{"no namespace", Identifier{Namespace: []string{"nope"}, Name: "t"}, "m1", false, iceberg.ErrNoSuchNamespace},
		{"empty location", Identifier{Namespace: []string{"db"}, Name: "e"}, "", false, ErrInvalidArgument},
		{"empty name", Identifier{Namespace: []string{"db"}, Name: ""}, "m1", false, ErrInvalidIdentifier},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.register {
				err = c.RegisterTable(ctx, tt.id, tt.location)
			} else {
				err = c.CreateTable(ctx, tt.id, tt.location)
			}
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if tt.want != nil {
				return
			}
			rec, err := c.LoadTable(ctx, tt.id)
			if err != nil || rec != (TableRecord{MetadataLocation: tt.location}) {
				t.Fatalf("LoadTable = %+v, %v", rec, err)
			}
		})
	}
	var typ string
	if err := c.reader().QueryRow("SELECT iceberg_type FROM iceberg_tables WHERE table_name = 't'").Scan(&typ); err != nil || typ != "TABLE" {
		t.Fatalf("iceberg_type = %q, %v; want TABLE", typ, err)
	}
	if _, err := c.LoadTable(ctx, ident(t, "db.v")); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("a view loaded as a table: %v", err)
	}
	if _, err := c.LoadTable(ctx, ident(t, "db.missing")); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("missing table err = %v", err)
	}
	got, err := c.ListTables(ctx, []string{"db"})
	want := []Identifier{{Namespace: []string{"db"}, Name: "existing"}, {Namespace: []string{"db"}, Name: "r"}, {Namespace: []string{"db"}, Name: "t"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ListTables = %v, %v; want %v (views excluded)", got, err, want)
	}
	if _, err := c.ListTables(ctx, []string{"nope"}); !errors.Is(err, iceberg.ErrNoSuchNamespace) {
		t.Fatalf("ListTables missing ns err = %v", err)
	}
}

func TestLoadTableRejectsNullLocation(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	if _, err := c.cur.Load().write.Exec("INSERT INTO iceberg_tables VALUES ('default', 'db', 'broken', NULL, NULL, 'TABLE')"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.LoadTable(ctx, ident(t, "db.broken")); !errors.Is(err, ErrInvalidRow) {
		t.Fatalf("err = %v, want ErrInvalidRow", err)
	}
	if _, err := c.DropTable(ctx, ident(t, "db.broken")); err != nil {
		t.Fatalf("a broken row must still be droppable: %v", err)
	}
}

func TestTableExists(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	mustCreateTable(t, c, "db.t", "m")
	for id, want := range map[string]bool{"db.t": true, "db.u": false, "other.t": false} {
		t.Run(id, func(t *testing.T) {
			got, err := c.TableExists(ctx, ident(t, id))
			if err != nil || got != want {
				t.Fatalf("TableExists = %v, %v; want %v", got, err, want)
			}
		})
	}
}

func TestRenameTable(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	mustCreateNamespace(t, c, "other")
	mustCreateTable(t, c, "db.a", "ma")
	mustCreateTable(t, c, "db.b", "mb")
	tests := []struct {
		name     string
		from, to string
		want     error
	}{
		{"same namespace", "db.a", "db.a2", nil},
		{"across namespaces", "db.a2", "other.a", nil},
		{"missing source", "db.a", "db.z", iceberg.ErrNoSuchTable},
		{"target exists", "other.a", "db.b", iceberg.ErrTableAlreadyExists},
		{"target namespace missing", "db.b", "nope.b", iceberg.ErrNoSuchNamespace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.RenameTable(ctx, ident(t, tt.from), ident(t, tt.to))
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	rec, err := c.LoadTable(ctx, ident(t, "other.a"))
	if err != nil || rec.MetadataLocation != "ma" {
		t.Fatalf("renamed table = %+v, %v", rec, err)
	}
	if rec, err := c.LoadTable(ctx, ident(t, "db.b")); err != nil || rec.MetadataLocation != "mb" {
		t.Fatalf("failed rename changed target: %+v, %v", rec, err)
	}
}

func TestDropTable(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "m1")
	if err := c.CommitTable(ctx, id, "m1", "m2"); err != nil {
		t.Fatal(err)
	}
	rec, err := c.DropTable(ctx, id)
	if err != nil || rec != (TableRecord{MetadataLocation: "m2", PreviousMetadataLocation: "m1"}) {
		t.Fatalf("DropTable = %+v, %v", rec, err)
	}
	if _, err := c.DropTable(ctx, id); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("second DropTable err = %v", err)
	}
	if ok, _ := c.TableExists(ctx, id); ok {
		t.Fatal("table still exists")
	}
	// The namespace row survives the drop.
	if ok, _ := c.NamespaceExists(ctx, []string{"db"}); !ok {
		t.Fatal("namespace vanished with its last table")
	}
}
