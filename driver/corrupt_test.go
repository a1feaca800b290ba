package driver_test

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/sqltest"
)

// corruptFixture is a warehouse whose table c has three appends and one
// merge-on-read delete, so it has every kind of file a read touches.
type corruptFixture struct {
	wh   string
	db   *sql.DB
	rows []string // SELECT id, s FROM c ORDER BY id, rendered
	// files by kind: "metadata", "manifest-list", "manifest", "data", "delete"
	files map[string]string
}

func newCorruptFixture(t *testing.T) *corruptFixture {
	t.Helper()
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE c (id BIGINT, s STRING) TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'commit.retry.num-retries'='0')")
	mustExec(t, db, "INSERT INTO c VALUES (1, 'a'), (2, 'b')")
	mustExec(t, db, "INSERT INTO c VALUES (3, 'c')")
	mustExec(t, db, "INSERT INTO c VALUES (4, 'd'), (5, 'e')")
	mustExec(t, db, "DELETE FROM c WHERE id = 2")
	f := &corruptFixture{wh: wh, db: db, files: map[string]string{}}
	f.rows = queryStrings(t, db, "SELECT id, s FROM c ORDER BY id")
	if want := []string{"1|a", "3|c", "4|d", "5|e"}; !slices.Equal(f.rows, want) {
		t.Fatalf("fixture rows %v, want %v", f.rows, want)
	}
	f.files["metadata"] = f.metadataLocation(t)
	f.files["manifest-list"] = queryStrings(t, db, "SELECT manifest_list FROM c.snapshots ORDER BY committed_at DESC, snapshot_id LIMIT 1")[0]
	f.files["data"] = queryStrings(t, db, "SELECT file_path FROM c.data_files WHERE record_count = 2 ORDER BY file_path LIMIT 1")[0]
	f.files["delete"] = queryStrings(t, db, "SELECT file_path FROM c.delete_files")[0]
	// The manifest holding the delete file is the one a read cannot skip.
	f.files["manifest"] = queryStrings(t, db, "SELECT path FROM c.manifests WHERE content = 1")[0]
	for k, loc := range f.files {
		f.files[k] = localPath(t, loc)
	}
	return f
}

// metadataLocation reads the catalog row of c directly.
func (f *corruptFixture) metadataLocation(t *testing.T) string {
	t.Helper()
	cat, err := sql.Open("sqlite3", filepath.Join(f.wh, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	var loc string
	if err := cat.QueryRow("SELECT metadata_location FROM iceberg_tables WHERE table_name = 'c'").Scan(&loc); err != nil {
		t.Fatal(err)
	}
	return loc
}

func localPath(t *testing.T, loc string) string {
	t.Helper()
	if strings.HasPrefix(loc, "file:") {
		u, err := url.Parse(loc)
		if err != nil {
			t.Fatal(err)
		}
		return u.Path
	}
	return loc
}

// queryStrings renders every row as its values joined by "|".
var queryStrings = sqltest.QueryStrings

var tryQueryStrings = sqltest.JoinedRows

// corruption damages the file at path.
type corruption struct {
	name  string
	apply func(path string) error
}

var corruptions = []corruption{
	{"truncate", func(p string) error {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		return os.Truncate(p, st.Size()/2)
	}},
	{"empty", func(p string) error { return os.Truncate(p, 0) }},
	{"flip-bytes", func(p string) error {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Flip bytes spread over the whole file (header, body, footer).
		for i := 0; i < len(b); i += max(1, len(b)/16) {
			b[i] ^= 0x5a
		}
		b[len(b)-1] ^= 0x5a
		return os.WriteFile(p, b, 0o644)
	}},
	{"flip-body", func(p string) error {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Keep the magic numbers at both ends; damage what lies between.
		for i := len(b) / 4; i < len(b)*3/4; i += max(1, len(b)/64) {
			b[i] ^= 0xff
		}
		return os.WriteFile(p, b, 0o644)
	}},
	{"garbage", func(p string) error {
		return os.WriteFile(p, []byte(strings.Repeat("not an iceberg file\x00\xff", 64)), 0o644)
	}},
	{"delete", os.Remove},
}

// kindErrors are the sentinels a corrupt file of each kind may surface as.
var kindErrors = map[string][]error{
	"metadata":      {iceberg.ErrInvalidMetadata, iceberg.ErrNotFound},
	"manifest-list": {iceberg.ErrInvalidManifest, iceberg.ErrNotFound},
	"manifest":      {iceberg.ErrInvalidManifest, iceberg.ErrNotFound},
	"data":          {iceberg.ErrInvalidDataFile, iceberg.ErrNotFound},
	"delete":        {iceberg.ErrInvalidDataFile, iceberg.ErrNotFound},
}

// operation is one statement run against the damaged table. needs says
// which file kinds it must read (so it must fail when they are damaged);
// it may succeed only with the right answer when it does not need them.
type operation struct {
	name  string
	sql   string
	write bool
	needs []string
	check func(f *corruptFixture, got []string) error
}

func wantRows(f *corruptFixture, got []string) error {
	if !slices.Equal(got, f.rows) {
		return fmt.Errorf("rows %v, want %v", got, f.rows)
	}
	return nil
}

var corruptOps = []operation{
	{"select", "SELECT id, s FROM c ORDER BY id", false, []string{"metadata", "manifest-list", "manifest", "data", "delete"}, wantRows},
	{"filtered select", "SELECT id, s FROM c WHERE id >= 1 ORDER BY id", false, []string{"metadata", "manifest-list", "manifest", "data", "delete"}, wantRows},
	{"files table", "SELECT count(*) FROM c.files", false, []string{"metadata", "manifest-list", "manifest"}, nil},
	{"snapshots table", "SELECT count(*) FROM c.snapshots", false, []string{"metadata"}, nil},
	{"describe", "DESCRIBE c", false, []string{"metadata"}, nil},
	// Writes last: one that succeeds changes what later statements see.
	{"delete", "DELETE FROM c WHERE id = 1", true, []string{"metadata", "manifest-list", "manifest"}, nil},
	{"insert", "INSERT INTO c VALUES (9, 'z')", true, []string{"metadata"}, nil},
}

// TestCorruptFiles damages each kind of file of a table in each way and
// runs reads, writes and metadata statements on a fresh handle: each must
// give the right answer without the file, or fail with the file's kind
// sentinel and its name; a failed write must leave the catalog pointer.
func TestCorruptFiles(t *testing.T) {
	for _, kind := range []string{"metadata", "manifest-list", "manifest", "data", "delete"} {
		for _, cr := range corruptions {
			t.Run(kind+"/"+cr.name, func(t *testing.T) {
				t.Parallel()
				f := newCorruptFixture(t)
				path := f.files[kind]
				if err := cr.apply(path); err != nil {
					t.Fatal(err)
				}
				// A fresh handle, as another process would open it, so
				// nothing read before the damage is cached.
				f.db = openDB(t, f.wh)
				for _, op := range corruptOps {
					checkCorruptOp(t, f, kind, cr.name, path, op)
				}
			})
		}
	}
}

func checkCorruptOp(t *testing.T, f *corruptFixture, kind, damage, path string, op operation) {
	t.Helper()
	before := f.metadataLocation(t)
	var got []string
	var err error
	if op.write {
		_, err = f.db.Exec(op.sql)
	} else {
		got, err = tryQueryStrings(f.db, op.sql)
	}
	needed := slices.Contains(op.needs, kind)
	switch {
	case err == nil && needed:
		t.Errorf("%s: succeeded with %s %s (%s); got %v", op.name, damage, kind, path, got)
	case err == nil && op.check != nil:
		if cerr := op.check(f, got); cerr != nil {
			t.Errorf("%s with %s %s: %v", op.name, damage, kind, cerr)
		}
	case err != nil:
		if !slices.ContainsFunc(kindErrors[kind], func(s error) bool { return errors.Is(err, s) }) {
			t.Errorf("%s with %s %s: error %q matches none of %v", op.name, damage, kind, err, kindErrors[kind])
		}
		if !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Errorf("%s with %s %s: error %q does not name the file %s", op.name, damage, kind, err, filepath.Base(path))
		}
	}
	if op.write && err != nil {
		if after := f.metadataLocation(t); after != before {
			t.Errorf("failed %s moved the catalog pointer from %s to %s", op.name, before, after)
		}
	}
}

// TestCorruptCatalog: a catalog file that is not SQLite, and a catalog row
// whose metadata.json is gone.
func TestCorruptCatalog(t *testing.T) {
	t.Run("not sqlite", func(t *testing.T) {
		wh := t.TempDir()
		garbage := []byte(strings.Repeat("this is not a database\n", 200))
		if err := os.WriteFile(filepath.Join(wh, "catalog.db"), garbage, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("iceberg", wh)
		if err == nil {
			_, err = db.Exec("CREATE TABLE t (id BIGINT)")
			db.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "catalog.db") {
			t.Fatalf("garbage catalog: err = %v, want an error naming catalog.db", err)
		}
		if b, _ := os.ReadFile(filepath.Join(wh, "catalog.db")); string(b) != string(garbage) {
			t.Fatalf("the garbage catalog file was rewritten")
		}
	})
	t.Run("missing metadata.json", func(t *testing.T) {
		f := newCorruptFixture(t)
		meta := f.files["metadata"]
		if err := os.Remove(meta); err != nil {
			t.Fatal(err)
		}
		db := openDB(t, f.wh)
		for _, q := range []string{"SELECT * FROM c", "INSERT INTO c VALUES (7, 'x')", "DESCRIBE c", "SELECT * FROM c.history", "ALTER TABLE c ADD COLUMNS (z INT)"} {
			_, err := db.Exec(q)
			if !errors.Is(err, iceberg.ErrNotFound) || !strings.Contains(err.Error(), filepath.Base(meta)) {
				t.Errorf("%s: err = %v, want ErrNotFound naming %s", q, err, filepath.Base(meta))
			}
		}
		if got := f.metadataLocation(t); localPath(t, got) != meta {
			t.Fatalf("catalog pointer moved to %s", got)
		}
		// The rest of the catalog still works.
		mustExec(t, db, "CREATE TABLE other (id BIGINT)")
		mustExec(t, db, "INSERT INTO other VALUES (1)")
		// DROP of the broken table is how a user gets out; it must work.
		mustExec(t, db, "DROP TABLE c")
	})
}
