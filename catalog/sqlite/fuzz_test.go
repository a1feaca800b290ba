package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzNamesRoundTrip stores arbitrary namespace and table names and checks
// they come back exactly, and that the namespace prefix queries neither
// miss nor over-match.
func FuzzNamesRoundTrip(f *testing.F) {
	for _, s := range [][2]string{{"db", "t"}, {"a%", "_x"}, {"a!", "b/c"}, {"A", "t\xff"}, {"é", "ü"}} {
		f.Add(s[0], s[1])
	}
	ctx := context.Background()
	c, err := Open(ctx, filepath.Join(f.TempDir(), "fuzz.db"), Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { c.Close() })
	f.Fuzz(func(t *testing.T, level, name string) {
		ns := []string{"root", level}
		id := Identifier{Namespace: ns, Name: name}
		err := c.CreateNamespace(ctx, ns, map[string]string{"k": name})
		if errors.Is(err, ErrInvalidIdentifier) || errors.Is(err, ErrInvalidArgument) {
			return
		}
		if err != nil {
			t.Fatalf("CreateNamespace(%q): %v", ns, err)
		}
		defer c.DropNamespace(ctx, ns)
		err = c.CreateTable(ctx, id, "loc")
		if errors.Is(err, ErrInvalidIdentifier) {
			return
		}
		if err != nil {
			t.Fatalf("CreateTable(%q): %v", id, err)
		}
		defer c.DropTable(ctx, id)
		tables, err := c.ListTables(ctx, ns)
		if err != nil || !reflect.DeepEqual(tables, []Identifier{id}) {
			t.Fatalf("ListTables = %q, %v; want [%q]", tables, err, id)
		}
		children, err := c.ListNamespaces(ctx, []string{"root"})
		if err != nil || !reflect.DeepEqual(children, [][]string{ns}) {
			t.Fatalf("ListNamespaces(root) = %q, %v; want [%q]", children, err, ns)
		}
		props, err := c.LoadNamespaceProperties(ctx, ns)
		if err != nil || props["k"] != name {
			t.Fatalf("props = %q, %v", props, err)
		}
		if ok, err := c.NamespaceExists(ctx, []string{"root", level + "x"}); err != nil || ok {
			t.Fatalf("sibling %q reported as existing: %v", level+"x", err)
		}
	})
}
