package sqlite

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestCreateNamespace(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "a")
	tests := []struct {
		name  string
		ns    []string
		props map[string]string
		want  error
	}{
		{"new top level", []string{"b"}, map[string]string{"owner": "me"}, nil},
		{"child without parent", []string{"x", "y"}, nil, nil},
		{"duplicate", []string{"a"}, nil, iceberg.ErrNamespaceExists},
		{"implicit parent exists", []string{"x"}, nil, iceberg.ErrNamespaceExists},
		{"empty", nil, nil, ErrInvalidIdentifier},
		{"dotted level", []string{"a.b"}, nil, ErrInvalidIdentifier},
		{"empty key", []string{"c"}, map[string]string{"": "v"}, ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.CreateNamespace(ctx, tt.ns, tt.props)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			var ce *CatalogError
			if err != nil && !errors.As(err, &ce) {
				t.Fatalf("error %T is not a *CatalogError", err)
			}
		})
	}
	props, err := c.LoadNamespaceProperties(ctx, []string{"b"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"owner": "me", "exists": "true"}; !reflect.DeepEqual(props, want) {
		t.Fatalf("props = %v, want %v (Java always adds exists=true)", props, want)
	}
}

func TestNamespaceExistsAndList(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "a")
	mustCreateNamespace(t, c, "a", "b")
	mustCreateNamespace(t, c, "a", "b", "c")
	mustCreateNamespace(t, c, "ab")
	mustCreateNamespace(t, c, "a_c")
	mustCreateNamespace(t, c, "d", "e") // d exists only implicitly
	mustCreateTable(t, c, "a.t1", "m")

	exists := []struct {
		ns   []string
		want bool
	}{
		{[]string{"a"}, true},
		{[]string{"a", "b"}, true},
		{[]string{"d"}, true},
		{[]string{"A"}, false}, // case-sensitive, unlike LIKE
		{[]string{"a", "x"}, false},
		{[]string{"e"}, false},
		{[]string{"a%"}, false},
	}
	for _, tt := range exists {
		t.Run("exists "+joinNamespace(tt.ns), func(t *testing.T) {
			got, err := c.NamespaceExists(ctx, tt.ns)
			if err != nil || got != tt.want {
				t.Fatalf("NamespaceExists = %v, %v; want %v", got, err, tt.want)
			}
		})
	}

	list := []struct {
		parent []string
		want   [][]string
		err    error
	}{
		{nil, [][]string{{"a"}, {"a_c"}, {"ab"}, {"d"}}, nil},
		{[]string{"a"}, [][]string{{"a", "b"}}, nil},
		{[]string{"a", "b"}, [][]string{{"a", "b", "c"}}, nil},
		{[]string{"a", "b", "c"}, nil, nil},
		{[]string{"d"}, [][]string{{"d", "e"}}, nil},
		{[]string{"zz"}, nil, iceberg.ErrNoSuchNamespace},
	}
	for _, tt := range list {
		t.Run("list "+joinNamespace(tt.parent), func(t *testing.T) {
			got, err := c.ListNamespaces(ctx, tt.parent)
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ListNamespaces(%v) = %v, want %v", tt.parent, got, tt.want)
			}
		})
	}
}

func TestUpdateNamespaceProperties(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	if err := c.CreateNamespace(ctx, []string{"db"}, map[string]string{"a": "1", "b": "2"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		ns       []string
		removals []string
		updates  map[string]string
		want     map[string]string
		err      error
	}{
		{"set and remove", []string{"db"}, []string{"a", "missing"}, map[string]string{"b": "3", "c": "4"},
			map[string]string{"exists": "true", "b": "3", "c": "4"}, nil},
		{"overlap", []string{"db"}, []string{"b"}, map[string]string{"b": "5"},
			map[string]string{"exists": "true", "b": "3", "c": "4"}, ErrInvalidArgument},
		{"no such namespace", []string{"nope"}, nil, map[string]string{"x": "y"}, nil, iceberg.ErrNoSuchNamespace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.UpdateNamespaceProperties(ctx, tt.ns, tt.removals, tt.updates)
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if tt.want == nil {
				return
			}
			got, err := c.LoadNamespaceProperties(ctx, tt.ns)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("props = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDropNamespace(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "empty")
	mustCreateNamespace(t, c, "full")
	mustCreateTable(t, c, "full.t", "m")
	mustCreateNamespace(t, c, "parent")
	mustCreateNamespace(t, c, "parent", "child")
	tests := []struct {
		name string
		ns   []string
		want error
	}{
		{"empty", []string{"empty"}, nil},
		{"again", []string{"empty"}, iceberg.ErrNoSuchNamespace},
		{"with table", []string{"full"}, iceberg.ErrNamespaceNotEmpty},
		{"with child", []string{"parent"}, iceberg.ErrNamespaceNotEmpty},
		{"child", []string{"parent", "child"}, nil},
		{"parent after child", []string{"parent"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.DropNamespace(ctx, tt.ns)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			ok, err := c.NamespaceExists(ctx, tt.ns)
			if err != nil {
				t.Fatal(err)
			}
			if wantExists := tt.want == iceberg.ErrNamespaceNotEmpty; ok != wantExists {
				t.Fatalf("exists after drop = %v, want %v", ok, wantExists)
			}
		})
	}
}

func TestCatalogNamesAreIsolated(t *testing.T) {
	ctx := context.Background()
	c, path := openTest(t, Options{CatalogName: "one"})
	mustCreateNamespace(t, c, "db")
	mustCreateTable(t, c, "db.t", "m")
	other, err := Open(ctx, path, Options{CatalogName: "two"})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if ok, err := other.NamespaceExists(ctx, []string{"db"}); err != nil || ok {
		t.Fatalf("other catalog sees namespace: %v, %v", ok, err)
	}
	if _, err := other.LoadTable(ctx, ident(t, "db.t")); !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("other catalog LoadTable err = %v", err)
	}
}
