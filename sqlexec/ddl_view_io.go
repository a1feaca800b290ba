package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

// maxViewMetadataSize bounds what a view metadata read allocates; real
// files are a few kilobytes.
const maxViewMetadataSize = 64 << 20

// loadedView is a view's current metadata and where it was read from.
type loadedView struct {
	id       table.Identifier
	location string
	meta     *iceberg.ViewMetadata
}

// loadView reads the view id names (iceberg.ErrNoSuchView if none).
func (e *Engine) loadView(ctx context.Context, id table.Identifier) (*loadedView, error) {
	rec, err := e.catalog.LoadView(ctx, id)
	if err != nil {
		return nil, err
	}
	meta, err := e.readViewMetadata(ctx, rec.MetadataLocation)
	if err != nil {
		return nil, fmt.Errorf("view %s: %w", id, err)
	}
	return &loadedView{id: id, location: rec.MetadataLocation, meta: meta}, nil
}

// viewMetaCache holds parsed view metadata by file location: a query
// naming a view still asks the catalog for the current location, but does
// not read and parse the file again. Bounded by dropping everything.
type viewMetaCache struct {
	mu sync.Mutex
	m  map[string]*iceberg.ViewMetadata
}

const maxCachedViews = 256

func (c *viewMetaCache) get(location string) (*iceberg.ViewMetadata, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.m[location]
	return m, ok
}

func (c *viewMetaCache) put(location string, m *iceberg.ViewMetadata) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedViews {
		c.m = map[string]*iceberg.ViewMetadata{}
	}
	c.m[location] = m
}

func (e *Engine) readViewMetadata(ctx context.Context, location string) (*iceberg.ViewMetadata, error) {
	if m, ok := e.views.get(location); ok {
		return m, nil
	}
	m, err := e.parseViewFile(ctx, location)
	if err == nil {
		e.views.put(location, m)
	}
	return m, err
}

func (e *Engine) parseViewFile(ctx context.Context, location string) (*iceberg.ViewMetadata, error) {
	f, err := e.env.IO.Open(ctx, location)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf, err := fileio.ReadAll(f, maxViewMetadataSize)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", iceberg.ErrInvalidViewMetadata, err)
	}
	meta, err := iceberg.ParseViewMetadata(buf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", location, err)
	}
	return meta, nil
}

// viewLocation is where a view's metadata lives: the same layout as a
// table's (<warehouse>/<namespace>.db/<view>), so one namespace's objects
// share one directory.
func (e *Engine) viewLocation(id table.Identifier) string {
	return e.tableLocation(id.Namespace, id.Name)
}

// writeViewMetadata writes meta as the metadata file that follows
// previous ("" for a new view): <location>/metadata/<NNNNN>-<uuid>.metadata.json,
// created exclusively and durable before it returns.
func (e *Engine) writeViewMetadata(ctx context.Context, meta *iceberg.ViewMetadata, previous string) (string, error) {
	data, err := iceberg.EncodeViewMetadata(meta)
	if err != nil {
		return "", err
	}
	loc := fmt.Sprintf("%s/metadata/%05d-%s.metadata.json", fileio.NewFileBase(strings.TrimRight(meta.Location, "/")), viewFileVersion(previous)+1, iceberg.NewUUIDString())
	out, err := e.env.IO.Create(ctx, loc)
	if err != nil {
		return "", err
	}
	if _, err := out.Write(data); err != nil {
		return "", errors.Join(err, out.Abort())
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return loc, nil
}

// viewFileVersion is the number a metadata file name starts with, -1 for
// none or a name without one (Java's parseVersion).
func viewFileVersion(location string) int {
	if location == "" {
		return -1
	}
	name := location[strings.LastIndexByte(location, '/')+1:]
	num, _, ok := strings.Cut(name, "-")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// commitView installs meta for the view: a new catalog row when old is
// nil, else a compare-and-swap from old's location. The written file is
// removed when the catalog certainly refused it. A catalog that writes
// view metadata itself (catalog.ViewMetadataCommitter: REST) is handed
// meta instead, and the engine writes nothing.
func (e *Engine) commitView(ctx context.Context, id table.Identifier, old *loadedView, meta *iceberg.ViewMetadata) error {
	prev := ""
	if old != nil {
		prev = old.location
	} else if err := checkNewIdent(id); err != nil {
		return err
	}
	if vc, ok := e.catalog.(catalog.ViewMetadataCommitter); ok {
		var loc string
		var written *iceberg.ViewMetadata
		var err error
		if old == nil {
			loc, written, err = vc.CreateViewFromMetadata(ctx, id, meta)
		} else {
			loc, written, err = vc.ReplaceViewMetadata(ctx, id, old.meta, meta)
		}
		if err == nil {
			e.views.put(loc, written)
		}
		return err
	}
	loc, err := e.writeViewMetadata(ctx, meta, prev)
	if err != nil {
		return err
	}
	if old == nil {
		err = e.catalog.CreateView(ctx, id, loc)
	} else {
		err = e.catalog.CommitView(ctx, id, old.location, loc)
	}
	if err != nil && !errors.Is(err, iceberg.ErrCommitStateUnknown) {
		_ = e.env.IO.Remove(context.WithoutCancel(ctx), loc)
	}
	return err
}

// ownsViewFiles reports whether the engine writes (and so removes) its
// views' metadata files; a ViewMetadataCommitter catalog does both.
func (e *Engine) ownsViewFiles() bool {
	_, ok := e.catalog.(catalog.ViewMetadataCommitter)
	return !ok
}

// requireViews refuses view statements on a catalog without view support.
func (e *Engine) requireViews() error {
	if !e.catalog.SupportsViews() {
		return fmt.Errorf("%w: %w", ErrNotSupported, catalog.ErrViewsUnsupported)
	}
	return nil
}
