package scan

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/manifest"
)

// inlineWorkers is how many inline manifests are read at once.
const inlineWorkers = 8

// SnapshotManifests returns the manifests of a snapshot: the entries of
// its manifest list, or for a format v1 snapshot that names its manifests
// inline, what InlineManifests builds. Errors are as ReadManifestList's
// and InlineManifests'.
func SnapshotManifests(ctx context.Context, open Opener, snap *iceberg.Snapshot) ([]iceberg.ManifestFile, error) {
	if snap == nil {
		return nil, nil
	}
	if snap.ManifestList == "" {
		return InlineManifests(ctx, open, snap)
	}
	return ReadManifestList(open, snap.ManifestList)
}

// ReadManifestList reads the manifest list at path. A file that does not
// open or read returns the opener's error; one that does not decode an
// *iceberg.CorruptFileError matching iceberg.ErrInvalidManifest.
func ReadManifestList(open Opener, path string) ([]iceberg.ManifestFile, error) {
	rc, err := open(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	list, err := manifest.ReadManifestList(rc, manifest.WithPath(path))
	if err != nil {
		return nil, err
	}
	return list, nil
}

// InlineManifests builds the manifest list of a snapshot without one, as
// Java does for v1 snapshots that list manifest paths inline
// ("manifests" in metadata.json, written by early writers): each
// manifest is data content with sequence numbers 0, added by this
// snapshot. Unlike Java, which leaves them unknown, the partition spec
// id (the header's partition-spec-id, 0 when absent as in Java's
// reader), the length and the file counts are read from the file, so
// carrying the manifests forward into a manifest list records them.
// Partition summaries stay unset (no pruning by summary). A manifest that
// does not open returns the opener's error (fileio's wraps
// iceberg.ErrNotFound); one that does not decode an
// *iceberg.CorruptFileError matching iceberg.ErrInvalidManifest.
func InlineManifests(ctx context.Context, open Opener, snap *iceberg.Snapshot) ([]iceberg.ManifestFile, error) {
	mfs, _, err := inlineManifests(ctx, open, snap)
	return mfs, err
}

// inlineManifests is InlineManifests that also names the manifest an
// error is about.
func inlineManifests(ctx context.Context, open Opener, snap *iceberg.Snapshot) ([]iceberg.ManifestFile, string, error) {
	out := make([]iceberg.ManifestFile, len(snap.Manifests))
	errs := make([]error, len(snap.Manifests))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(inlineWorkers, len(snap.Manifests)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = InlineManifest(open, snap.Manifests[i], snap.SnapshotID)
			}
		}()
	}
	for i := range snap.Manifests {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	for i, err := range errs {
		if err != nil {
			return nil, snap.Manifests[i], err
		}
	}
	return out, "", nil
}

// InlineManifest builds the manifest list entry of one inline manifest of
// snapshot snapshotID; see InlineManifests.
func InlineManifest(open Opener, path string, snapshotID int64) (iceberg.ManifestFile, error) {
	mf := iceberg.ManifestFile{Path: path, Content: iceberg.ManifestContentData, AddedSnapshotID: snapshotID}
	rc, err := open(path)
	if err != nil {
		return iceberg.ManifestFile{}, err
	}
	defer rc.Close()
	counted := &countingReader{r: rc}
	r, err := manifest.NewManifestReader(counted, manifest.WithPath(path))
	if err != nil {
		return iceberg.ManifestFile{}, err
	}
	// The reader holds the whole file once its header is read.
	mf.Length = counted.n
	if r.Content() != iceberg.ManifestContentData {
		return iceberg.ManifestFile{}, inlineCorrupt(path, "lists delete files; inline manifests hold data files only")
	}
	if v, ok := r.Metadata()["partition-spec-id"]; ok {
		id, err := strconv.Atoi(string(v))
		if err != nil || id < 0 {
			return iceberg.ManifestFile{}, inlineCorrupt(path, fmt.Sprintf("partition-spec-id %q is not a spec id", v))
		}
		mf.SpecID = id
	}
	for e, err := range r.Entries(mf) {
		if err != nil {
			return iceberg.ManifestFile{}, err
		}
		if err := countEntry(&mf, &e); err != nil {
			return iceberg.ManifestFile{}, asCorrupt(path, err)
		}
	}
	return mf, nil
}

// countEntry adds an entry to its manifest's file and row counts.
func countEntry(mf *iceberg.ManifestFile, e *iceberg.ManifestEntry) error {
	if e.DataFile.Content != iceberg.ContentData {
		return fmt.Errorf("entry %s is a delete file", e.DataFile.FilePath)
	}
	switch e.Status {
	case iceberg.StatusAdded:
		mf.AddedFilesCount++
		mf.AddedRowsCount += e.DataFile.RecordCount
	case iceberg.StatusExisting:
		mf.ExistingFilesCount++
		mf.ExistingRowsCount += e.DataFile.RecordCount
	case iceberg.StatusDeleted:
		mf.DeletedFilesCount++
		mf.DeletedRowsCount += e.DataFile.RecordCount
	default:
		return fmt.Errorf("entry %s has status %d", e.DataFile.FilePath, e.Status)
	}
	return nil
}

func inlineCorrupt(path, msg string) error {
	return &iceberg.CorruptFileError{Path: path, Kind: iceberg.ErrInvalidManifest, Err: fmt.Errorf("inline manifest %s", msg)}
}

// asCorrupt makes an inconsistent entry an *iceberg.CorruptFileError
// naming path.
func asCorrupt(path string, err error) error {
	return &iceberg.CorruptFileError{Path: path, Kind: iceberg.ErrInvalidManifest, Err: err}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

// Size is the underlying file's, when it has one (the manifest reader
// refuses oversized files unread).
func (c *countingReader) Size() int64 {
	if s, ok := c.r.(interface{ Size() int64 }); ok {
		return s.Size()
	}
	return -1
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
