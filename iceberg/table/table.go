// Package table is the commit protocol of icesql: loading a table from its
// catalog pointer, producing snapshots (append, overwrite, row delta,
// rewrite), validating them per isolation level, and installing them with a
// compare-and-swap of the catalog pointer, retried per commit.retry.*.
//
// Every write follows the same four steps: resolve the base snapshot; write
// data and delete files that nobody can see yet; write the manifest(s), the
// manifest list and metadata.json; swap the pointer. Only the swap makes
// anything visible.
package table

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// Env is what a table needs to read and commit: its catalog, storage and
// where commit reports go. One Env serves many tables.
type Env struct {
	Catalog  Catalog
	IO       fileio.FileIO
	Reporter iceberg.MetricsReporter // may be nil
	// Now is the clock for snapshot timestamps; nil means time.Now.
	Now func() time.Time
	// Faults lets tests fail the write path at a chosen step; nil in production.
	Faults *Faults

	// RemoveExpired, when set, removes the files that only the snapshots
	// a commit expired reached (history.expire.on-commit.enabled), after
	// that commit landed: before is the metadata the commit started from
	// and after the table it installed. maintenance.RemoveExpiredFiles is
	// the one icesql's engine sets; without it those files are left for
	// remove_orphan_files.
	RemoveExpired func(ctx context.Context, before *iceberg.TableMetadata, after *Table, expired []int64) error

	// commits serialises this Env's commits per table (locks.go).
	commits commitState
	// lists keeps manifest lists read or written (list_cache.go).
	lists listCache
}

// createLazy creates a metadata-side file (manifest, manifest list,
// metadata.json) whose durability is deferred to syncFiles, so a commit
// makes all of them durable together right before the swap.
func (e *Env) createLazy(ctx context.Context, location string) (fileio.OutputFile, error) {
	if ls, ok := e.IO.(fileio.LazySyncer); ok {
		return ls.CreateLazy(ctx, location)
	}
	return e.IO.Create(ctx, location)
}

// syncFiles makes lazily created files durable; nothing may reference
// them from the catalog before it returns.
func (e *Env) syncFiles(ctx context.Context, locations []string) error {
	if ls, ok := e.IO.(fileio.LazySyncer); ok {
		return ls.Sync(ctx, locations)
	}
	return nil
}

func (e *Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Table is one version of a table: its identifier, metadata and the
// metadata file it was read from. A Table never changes; Refresh returns a
// new one.
type Table struct {
	env      *Env
	ident    Identifier
	meta     *iceberg.TableMetadata
	location string // the metadata.json read, or for a staged table its written base
	staged   bool   // meta holds changes of an open transaction not yet written
	// creating holds, for a table StageCreate made, the updates that
	// build its first version: it has no catalog row until a commit.
	creating []iceberg.Update
	// list is the manifest list this process wrote for the snapshot it
	// committed, so the next commit on this version need not read it back.
	list *writtenList
}

// writtenList is a manifest list's location and its entries as written.
type writtenList struct {
	location  string
	manifests []iceberg.ManifestFile
}

// manifestsOf returns the manifests of s, from the list this version
// wrote when that is s's.
func (t *Table) manifestsOf(ctx context.Context, s *iceberg.Snapshot) ([]iceberg.ManifestFile, error) {
	if s != nil && t.list != nil && t.list.location == s.ManifestList {
		return slices.Clone(t.list.manifests), nil
	}
	return ManifestsOf(ctx, t.env.IO, s)
}

// Load reads the table's current metadata through the catalog pointer.
func Load(ctx context.Context, env *Env, ident Identifier) (*Table, error) {
	loc, err := env.Catalog.CurrentMetadataLocation(ctx, ident)
	if err != nil {
		return nil, err
	}
	return LoadAt(ctx, env, ident, loc)
}

// LoadAt reads the table from a given metadata location.
func LoadAt(ctx context.Context, env *Env, ident Identifier, metadataLocation string) (*Table, error) {
	meta, err := ReadMetadata(ctx, env.IO, metadataLocation)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", ident, err)
	}
	return &Table{env: env, ident: ident, meta: meta, location: metadataLocation}, nil
}

// ReadMetadata reads and parses a metadata.json (gzipped when its name
// says .gz.metadata.json). A file over iceberg.MaxMetadataFileBytes is
// refused unread (iceberg.ErrTooLarge).
func ReadMetadata(ctx context.Context, fio fileio.FileIO, location string) (*iceberg.TableMetadata, error) {
	f, err := fio.Open(ctx, location)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := fileio.ReadAll(f, iceberg.MaxMetadataFileBytes)
	if err != nil {
		return nil, &iceberg.CorruptFileError{Path: location, Kind: iceberg.ErrInvalidMetadata, Err: err}
	}
	meta, err := iceberg.ParseMetadata(data)
	if err != nil {
		return nil, &iceberg.CorruptFileError{Path: location, Kind: iceberg.ErrInvalidMetadata, Err: err}
	}
	return meta, nil
}

// Refresh reloads the table from the catalog.
func (t *Table) Refresh(ctx context.Context) (*Table, error) { return Load(ctx, t.env, t.ident) }

func (t *Table) Ident() Identifier                { return t.ident }
func (t *Table) Metadata() *iceberg.TableMetadata { return t.meta }
func (t *Table) MetadataLocation() string         { return t.location }
func (t *Table) Env() *Env                        { return t.env }
func (t *Table) Schema() *iceberg.Schema          { return t.meta.CurrentSchema() }
func (t *Table) Spec() *iceberg.PartitionSpec     { return t.meta.CurrentSpec() }
func (t *Table) IO() fileio.FileIO                { return t.env.IO }

// MetadataDir is where manifests, manifest lists and metadata.json go.
func (t *Table) MetadataDir() string { return metadataDir(t.meta) }

// DataDir is where data and delete files go.
func (t *Table) DataDir() string { return dataDir(t.meta) }

// metadataDir and dataDir name new files below the table's location in
// the form fileio.NewFileBase gives (a plain path for a file: location).
func metadataDir(m *iceberg.TableMetadata) string {
	if p := m.Property("write.metadata.path", ""); p != "" {
		return fileio.NewFileBase(strings.TrimSuffix(p, "/"))
	}
	return fileio.NewFileBase(strings.TrimSuffix(m.Location(), "/")) + "/metadata"
}

func dataDir(m *iceberg.TableMetadata) string {
	if p := m.Property("write.data.path", ""); p != "" {
		return fileio.NewFileBase(strings.TrimSuffix(p, "/"))
	}
	return fileio.NewFileBase(strings.TrimSuffix(m.Location(), "/")) + "/data"
}
