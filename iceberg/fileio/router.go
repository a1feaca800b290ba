package fileio

import (
	"context"
	"iter"
	"strings"
	"sync"
)

// Router sends each location to the FileIO of its scheme (s3, gs, ...);
// locations without a registered scheme (file:// URIs, plain paths) go to
// Default. One engine reads tables whose files live on different stores.
type Router struct {
	Default FileIO
	// Schemes maps a lower-case scheme ("s3", "s3a") to its FileIO.
	Schemes map[string]FileIO

	mu     sync.RWMutex
	mounts []mount // by descending prefix length
}

// mount serves the locations below a prefix with their own FileIO.
type mount struct {
	prefix string
	fio    FileIO
}

// Mount serves every location below prefix (a table location: the
// storage credentials a REST catalog vends for one table) with fio,
// before the schemes; the longest mounted prefix wins, and mounting a
// prefix again replaces its FileIO.
func (r *Router) Mount(prefix string, fio FileIO) {
	prefix = strings.TrimRight(prefix, "/") + "/"
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, m := range r.mounts {
		if m.prefix == prefix {
			r.mounts[i].fio = fio
			return
		}
	}
	at := len(r.mounts)
	for i, m := range r.mounts {
		if len(m.prefix) < len(prefix) {
			at = i
			break
		}
	}
	r.mounts = append(r.mounts, mount{})
	copy(r.mounts[at+1:], r.mounts[at:])
	r.mounts[at] = mount{prefix: prefix, fio: fio}
}

var (
	_ FileIO     = (*Router)(nil)
	_ LazySyncer = (*Router)(nil)
)

// For is the FileIO that serves a location.
func (r *Router) For(location string) FileIO {
	r.mu.RLock()
	for _, m := range r.mounts {
		if strings.HasPrefix(location, m.prefix) || location+"/" == m.prefix {
			r.mu.RUnlock()
			return m.fio
		}
	}
	r.mu.RUnlock()
	if scheme, _, ok := strings.Cut(location, "://"); ok {
		if fio, ok := r.Schemes[strings.ToLower(scheme)]; ok {
			return fio
		}
	}
	return r.Default
}

func (r *Router) Open(ctx context.Context, location string) (InputFile, error) {
	return r.For(location).Open(ctx, location)
}

func (r *Router) Create(ctx context.Context, location string) (OutputFile, error) {
	return r.For(location).Create(ctx, location)
}

func (r *Router) Remove(ctx context.Context, location string) error {
	return r.For(location).Remove(ctx, location)
}

func (r *Router) List(ctx context.Context, prefix string) iter.Seq2[FileInfo, error] {
	return r.For(prefix).List(ctx, prefix)
}

// CreateLazy implements LazySyncer for the FileIOs that do.
func (r *Router) CreateLazy(ctx context.Context, location string) (OutputFile, error) {
	return CreateForCommit(ctx, r.For(location), location)
}

// Sync syncs each FileIO's share of the locations; FileIOs that are not
// LazySyncers made their files durable at Close.
func (r *Router) Sync(ctx context.Context, locations []string) error {
	for fio, locs := range r.group(locations) {
		if ls, ok := fio.(LazySyncer); ok {
			if err := ls.Sync(ctx, locs); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Router) group(locations []string) map[FileIO][]string {
	out := map[FileIO][]string{}
	for _, loc := range locations {
		fio := r.For(loc)
		out[fio] = append(out[fio], loc)
	}
	return out
}

// Bulk is the BulkRemover that serves location natively, looking through
// a Router; ok is false for FileIOs that delete one file at a time (their
// callers delete in parallel instead).
func Bulk(fio FileIO, location string) (br BulkRemover, ok bool) {
	if r, isRouter := fio.(*Router); isRouter {
		fio = r.For(location)
	}
	br, ok = fio.(BulkRemover)
	return br, ok
}
