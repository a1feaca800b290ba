package catalogtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

// versions hands the suite the metadata locations it swaps pointers to.
//
// A catalog that stores pointers (SQLite, Postgres) swaps to any string, so
// a version is its name ("m1"). A catalog that writes metadata itself
// (table.MetadataCommitter, catalog.ViewMetadataCommitter: REST) needs
// real files, and installs files of its own: there a version is a metadata
// file whose property catalogtest.version holds its name, each table
// version adds a snapshot on its base's, so a commit from a stale base
// fails by its requirements (assert-ref-snapshot-id) as a stale pointer
// swap does, and the suite compares versions by name, not by location.
type versions struct {
	files bool // real metadata files
	views bool // real view metadata files
	dir   string

	mu    sync.Mutex
	made  map[string]string // base location + name -> location
	first map[string]string // name -> the first location made with it
	ids   int64
}

const versionProp = "catalogtest.version"

func newVersions(t *testing.T, c catalog.Catalog) *versions {
	_, files := c.(table.MetadataCommitter)
	_, views := c.(catalog.ViewMetadataCommitter)
	v := &versions{files: files, views: views, made: map[string]string{}, first: map[string]string{}}
	if files || views {
		v.dir = t.TempDir()
	}
	return v
}

// memo returns the location made for key, or makes it with mk.
func (v *versions) memo(t *testing.T, key, name string, mk func() (string, error)) string {
	t.Helper()
	v.mu.Lock()
	defer v.mu.Unlock()
	if loc, ok := v.made[key]; ok {
		return loc
	}
	loc, err := mk()
	if err != nil {
		t.Fatalf("version %s: %v", name, err)
	}
	v.made[key] = loc
	if _, ok := v.first[name]; !ok {
		v.first[name] = loc
	}
	return loc
}

// loc is the location of the version first made with name.
func (v *versions) loc(t *testing.T, name string) string {
	t.Helper()
	if !v.files && !v.views {
		return name
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	loc, ok := v.first[name]
	if !ok {
		t.Fatalf("no version %s was made", name)
	}
	return loc
}

func (v *versions) write(name string, data []byte) (string, error) {
	loc := filepath.Join(v.dir, fmt.Sprintf("%s-%s.metadata.json", name, iceberg.NewUUIDString()))
	return loc, os.WriteFile(loc, data, 0o644)
}

// table is the first version of a table.
func (v *versions) table(t *testing.T, name string) string {
	t.Helper()
	if !v.files {
		return name
	}
	return v.memo(t, "\x00"+name, name, func() (string, error) {
		schema, err := iceberg.NewSchema(0, []iceberg.NestedField{{ID: 1, Name: "id", Type: iceberg.LongType{}}})
		if err != nil {
			return "", err
		}
		m, err := iceberg.NewTableMetadata(schema, nil, nil, filepath.Join(v.dir, "tables", name), map[string]string{versionProp: name})
		if err != nil {
			return "", err
		}
		return v.encode(name, m)
	})
}

func (v *versions) encode(name string, m *iceberg.TableMetadata) (string, error) {
	data, err := iceberg.EncodeMetadata(m, false)
	if err != nil {
		return "", err
	}
	return v.write(name, data)
}

// child is a version following the one at base: one more snapshot on
// main, and its name.
func (v *versions) child(t *testing.T, base, name string) string {
	t.Helper()
	if !v.files {
		return name
	}
	return v.memo(t, base+"\x00"+name, name, func() (string, error) {
		m, err := table.ReadMetadata(context.Background(), &fileio.Local{}, base)
		if err != nil {
			return "", err
		}
		v.ids++ // under v.mu
		id := v.ids<<20 | int64(len(m.Snapshots())+1)
		s := &iceberg.Snapshot{SnapshotID: id, SequenceNumber: m.LastSequenceNumber() + 1, TimestampMs: 1700000000000 + v.ids,
			ManifestList: filepath.Join(v.dir, fmt.Sprintf("snap-%d.avro", id)), Summary: map[string]string{iceberg.SummaryOperation: "append"}}
		if cur := m.CurrentSnapshot(); cur != nil {
			p := cur.SnapshotID
			s.ParentSnapshotID = &p
		}
		b := iceberg.NewMetadataBuilder(m)
		if err := b.AddSnapshot(s); err != nil {
			return "", err
		}
		if err := b.SetSnapshotRef("main", iceberg.NewBranch(id)); err != nil {
			return "", err
		}
		if err := b.SetProperties(map[string]string{versionProp: name}); err != nil {
			return "", err
		}
		next, err := b.Build()
		if err != nil {
			return "", err
		}
		return v.encode(name, next)
	})
}

// name is the name of the table version at loc.
func (v *versions) name(t *testing.T, loc string) string {
	t.Helper()
	if !v.files {
		return loc
	}
	m, err := table.ReadMetadata(context.Background(), &fileio.Local{}, loc)
	if err != nil {
		t.Fatal(err)
	}
	return m.Properties()[versionProp]
}

// is reports whether the table version at loc is the one named name.
func (v *versions) is(t *testing.T, loc, name string) bool {
	t.Helper()
	return v.name(t, loc) == name
}

// view is the first version of a view.
func (v *versions) view(t *testing.T, name string) string {
	t.Helper()
	if !v.views {
		return name
	}
	return v.memo(t, "\x00view\x00"+name, name, func() (string, error) {
		schema, err := iceberg.NewSchema(0, []iceberg.NestedField{{ID: 1, Name: "id", Type: iceberg.LongType{}}})
		if err != nil {
			return "", err
		}
		m, err := iceberg.NewViewMetadata(filepath.Join(v.dir, "views", name), schema, viewVersion("SELECT 1 AS id"), map[string]string{versionProp: name})
		if err != nil {
			return "", err
		}
		return v.encodeView(name, m)
	})
}

func viewVersion(sql string) iceberg.ViewVersion {
	return iceberg.ViewVersion{TimestampMs: 1700000000000, Summary: map[string]string{iceberg.ViewSummaryEngineName: "catalogtest"},
		Representations:  []iceberg.ViewRepresentation{{Type: iceberg.ViewRepresentationSQL, SQL: sql, Dialect: "spark"}},
		DefaultNamespace: []string{"db"}}
}

func (v *versions) encodeView(name string, m *iceberg.ViewMetadata) (string, error) {
	data, err := iceberg.EncodeViewMetadata(m)
	if err != nil {
		return "", err
	}
	return v.write(name, data)
}

// viewChild is a view version following the one at base: a new query.
func (v *versions) viewChild(t *testing.T, base, name string) string {
	t.Helper()
	if !v.views {
		return name
	}
	return v.memo(t, "view\x00"+base+"\x00"+name, name, func() (string, error) {
		m, err := readView(base)
		if err != nil {
			return "", err
		}
		props := map[string]string{}
		for k, val := range m.Properties {
			props[k] = val
		}
		props[versionProp] = name
		next, err := m.ReplaceVersion(m.CurrentSchema(), viewVersion("SELECT 1 AS id -- "+name), props)
		if err != nil {
			return "", err
		}
		return v.encodeView(name, next)
	})
}

func readView(loc string) (*iceberg.ViewMetadata, error) {
	data, err := os.ReadFile(loc)
	if err != nil {
		return nil, err
	}
	return iceberg.ParseViewMetadata(data)
}

// isView reports whether the view version at loc is the one named name.
func (v *versions) isView(t *testing.T, loc, name string) bool {
	t.Helper()
	if !v.views {
		return loc == name
	}
	path, err := fileio.LocalPath(loc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := readView(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.Properties[versionProp] == name
}
