package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
	"github.com/icesql/icesql/iceberg/table"
)

// What SQL may touch on disk: the warehouse directory, minus the catalog
// file, one directory per table. A table's location never contains, or
// lies inside, another table's or the catalog file; an explicit LOCATION
// is a new or empty directory inside the warehouse (outside only with
// Config.AllowExternalLocations) and never inside a namespace's
// "<ns>.db" directory, where default locations live; remove_orphan_files
// deletes only inside the table's own location, with the same bounds.

// ErrLocation matches every refusal of a location by these rules.
var ErrLocation = errors.New("sqlexec: location not allowed")

func locationErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrLocation, fmt.Sprintf(format, args...))
}

// resolvedPath is the local path of a location, cleaned, with the
// symbolic links of its longest existing prefix resolved, so that a link
// cannot lead a check astray.
func resolvedPath(location string) (string, error) {
	if s3io.IsLocation(location) {
		return objectPath(location)
	}
	p, err := fileio.LocalPath(location)
	if err != nil {
		return "", err
	}
	if p, err = filepath.Abs(p); err != nil {
		return "", err
	}
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// objectPath is an object store location with its key cleaned (no "..",
// no doubled "/") and the scheme spelled s3, so the checks compare it as
// a path; keys are literal, there are no links to resolve.
func objectPath(location string) (string, error) {
	bucket, key, err := s3io.ParseLocation(location)
	if err != nil {
		return "", err
	}
	return "s3://" + bucket + strings.TrimSuffix(path.Clean("/"+key), "/"), nil
}

// within reports whether p is root or lies below it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// warehouseDir and catalogPath are the resolved warehouse and catalog file.
func (e *Engine) warehouseDir() string {
	p, err := resolvedPath(e.warehouseURI)
	if err != nil {
		return e.cfg.Warehouse
	}
	return p
}

func (e *Engine) catalogPath() string {
	if e.cfg.CatalogFile == "" {
		return "\x00no catalog file" // a catalog behind a URI: no path holds it
	}
	p, err := resolvedPath(e.cfg.CatalogFile)
	if err != nil {
		return e.cfg.CatalogFile
	}
	return p
}

// tableDirOf guesses a table's location from its metadata file's: the
// metadata directory's parent (write.metadata.path aside, which the
// table's own metadata names and its own checks cover).
func tableDirOf(metadataLocation string) string {
	dir := path.Dir(metadataLocation)
	if path.Base(dir) == "metadata" {
		return path.Dir(dir)
	}
	return dir
}

// checkTableLocation refuses a location for a new table (id) that breaks
// the rules above; explicit says it came from LOCATION.
func (e *Engine) checkTableLocation(ctx context.Context, id table.Identifier, loc string, explicit bool) error {
	p, err := resolvedPath(loc)
	if err != nil {
		return locationErrorf("%q: %v", loc, err)
	}
	wh := e.warehouseDir()
	if err := e.checkConfined(p, loc); err != nil {
		return err
	}
	if explicit {
		if within(wh, p) && p != wh {
			rel, _ := filepath.Rel(wh, p)
			first := strings.Split(filepath.ToSlash(rel), "/")[0]
			def, _ := resolvedPath(e.tableLocation(id.Namespace, id.Name))
			if strings.HasSuffix(first, ".db") && p != def {
				return locationErrorf("%q lies in the namespace directory %q, which holds the tables of default locations", loc, first)
			}
		}
		if err := e.checkEmptyDir(ctx, p, loc); err != nil {
			return err
		}
	}
	return e.checkNoOverlap(ctx, id, p, loc, true)
}

// checkConfined refuses a path outside the warehouse (unless external
// locations are allowed), the warehouse itself, and any path holding the
// catalog file.
func (e *Engine) checkConfined(p, loc string) error {
	wh := e.warehouseDir()
	if p == wh {
		return locationErrorf("%q is the warehouse directory itself", loc)
	}
	if within(p, e.catalogPath()) {
		return locationErrorf("%q holds the catalog file", loc)
	}
	if !e.cfg.AllowExternalLocations && !within(wh, p) {
		return locationErrorf("%q lies outside the warehouse %q (the DSN option allow_external_locations=true permits it)", loc, wh)
	}
	return nil
}

// checkNoOverlap refuses p if it contains the location of a table other
// than id, or (inside too) lies inside one.
func (e *Engine) checkNoOverlap(ctx context.Context, id table.Identifier, p, loc string, inside bool) error {
	all, ok := e.env.Catalog.(interface {
		AllMetadataLocations(context.Context) (map[string]string, error)
	})
	if !ok {
		return nil
	}
	locs, err := all.AllMetadataLocations(ctx)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(locs))
	for name := range locs {
		names = append(names, name)
	}
	sort.Strings(names) // the same table is named on every run
	for _, name := range names {
		if name == id.String() {
			continue
		}
		other, err := resolvedPath(tableDirOf(locs[name]))
		if err != nil {
			continue
		}
		if within(p, other) || inside && within(other, p) {
			return locationErrorf("%q overlaps the location of table %s", loc, name)
		}
	}
	return nil
}

// checkEmptyDir accepts a path that does not exist or is an empty
// directory; on object storage, a prefix no object lies under.
func (e *Engine) checkEmptyDir(ctx context.Context, p, loc string) error {
	if s3io.IsLocation(p) {
		for _, err := range e.env.IO.List(ctx, p) {
			if err != nil {
				return locationErrorf("%q: %v", loc, err)
			}
			return locationErrorf("%q is not empty: a new table's LOCATION must be a new or empty prefix", loc)
		}
		return nil
	}
	d, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return locationErrorf("%q: %v", loc, err)
	}
	defer d.Close()
	st, err := d.Stat()
	if err != nil {
		return locationErrorf("%q: %v", loc, err)
	}
	if !st.IsDir() {
		return locationErrorf("%q is not a directory", loc)
	}
	if _, err := d.Readdirnames(1); err != io.EOF {
		return locationErrorf("%q is not empty: a new table's LOCATION must be a new or empty directory", loc)
	}
	return nil
}

// newDirs records which directories of a new table's location do not exist
// yet, so that a failed create can remove them again (only if empty).
type newDirs []string

func missingDirs(loc, stop string) newDirs {
	p, err := fileio.LocalPath(loc)
	if err != nil {
		return nil
	}
	var out newDirs
	for _, sub := range []string{"metadata", "data"} {
		if _, err := os.Lstat(filepath.Join(p, sub)); errors.Is(err, fs.ErrNotExist) {
			out = append(out, filepath.Join(p, sub))
		}
	}
	for cur := p; cur != stop && cur != filepath.Dir(cur); cur = filepath.Dir(cur) {
		if _, err := os.Lstat(cur); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		out = append(out, cur)
	}
	return out
}

// remove deletes the recorded directories that are empty, deepest first;
// under data/ a failed CTAS may have left empty partition directories.
func (d newDirs) remove() {
	for _, dir := range d {
		if filepath.Base(dir) == "data" {
			removeEmptyTree(dir)
		}
		os.Remove(dir) // fails, harmlessly, when not empty
	}
}

func removeEmptyTree(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			sub := filepath.Join(dir, e.Name())
			removeEmptyTree(sub)
			os.Remove(sub)
		}
	}
}

// pathProperties are the table properties that move where files are
// written; they obey the table location's bounds.
var pathProperties = []string{"write.data.path", "write.metadata.path"}

// checkPathProperties refuses a write.data.path or write.metadata.path
// outside the table's location loc (with AllowExternalLocations: outside
// the rules of checkConfined).
func (e *Engine) checkPathProperties(loc string, props map[string]string) error {
	root, err := resolvedPath(loc)
	if err != nil {
		return locationErrorf("%q: %v", loc, err)
	}
	for _, k := range pathProperties {
		v, ok := props[k]
		if !ok {
			continue
		}
		if strings.Contains(v, "://") && !strings.HasPrefix(v, "file:") {
			return locationErrorf("%s %q: only local file: locations", k, v)
		}
		p, err := resolvedPath(v)
		if err != nil {
			return locationErrorf("%s %q: %v", k, v, err)
		}
		if within(root, p) {
			continue
		}
		if !e.cfg.AllowExternalLocations {
			return locationErrorf("%s %q lies outside the table location %q (the DSN option allow_external_locations=true permits it)", k, v, loc)
		}
		if err := e.checkConfined(p, v); err != nil {
			return err
		}
	}
	return nil
}

// checkOrphanRoot refuses to let remove_orphan_files list and delete under
// dir ("": the table location) unless dir lies inside the table's location
// (symbolic links resolved), within the warehouse bounds of checkConfined,
// and contains no other table's location: a table whose location is the
// warehouse, or holds another table's, is refused whole.
func (e *Engine) checkOrphanRoot(ctx context.Context, t *table.Table, dir string) error {
	loc := t.Metadata().Location()
	root, err := resolvedPath(loc)
	if err != nil {
		return locationErrorf("table location %q: %v", loc, err)
	}
	p := root
	if dir != "" {
		if p, err = resolvedPath(dir); err != nil {
			return locationErrorf("%q: %v", dir, err)
		}
		if !within(root, p) {
			return locationErrorf("%q lies outside the table location %q", dir, loc)
		}
	} else {
		dir = loc
	}
	if err := e.checkConfined(p, dir); err != nil {
		return err
	}
	return e.checkNoOverlap(ctx, t.Ident(), p, dir, false)
}
