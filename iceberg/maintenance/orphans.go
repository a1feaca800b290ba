package maintenance

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

// DefaultOrphanAge is remove_orphan_files' default older_than distance:
// files younger than this may belong to a commit still in flight.
const DefaultOrphanAge = 3 * 24 * time.Hour

// OrphanOptions are remove_orphan_files' arguments.
type OrphanOptions struct {
	// OlderThan: only files last modified before it are removed (default
	// now minus DefaultOrphanAge).
	OlderThan time.Time
	// DryRun lists the orphans without deleting them.
	DryRun bool
	// Location is the directory to clean (default the table location); it
	// must lie inside the table location.
	Location string
	// MaxConcurrentDeletes bounds parallel deletions (default 8).
	MaxConcurrentDeletes int
}

// RemoveOrphanFiles deletes the files under the location that no metadata
// of the table reaches (any snapshot's manifest list, manifests, data and
// delete files; the current metadata.json and those in its metadata log;
// statistics files) and that were last modified before the cut-off, so
// files of commits still in flight survive. Locations are compared after
// normalizing file: URIs to paths. A table with gc.enabled=false is
// refused.
func RemoveOrphanFiles(ctx context.Context, tbl *table.Table, opts OrphanOptions) (OrphanResult, error) {
	const proc = "remove_orphan_files"
	if opts.MaxConcurrentDeletes < 0 {
		return OrphanResult{}, &ArgumentError{Procedure: proc, Argument: "max_concurrent_deletes", Reason: "must be positive"}
	}
	// The latest metadata references the most files; anything committed
	// after this read is newer than the cut-off or already referenced.
	cur, err := tbl.Refresh(ctx)
	if err != nil {
		return OrphanResult{}, err
	}
	meta := cur.Metadata()
	if !gcEnabled(meta) {
		return OrphanResult{}, fmt.Errorf("%w: cannot remove orphan files", ErrGCDisabled)
	}
	cutoff := opts.OlderThan
	if cutoff.IsZero() {
		cutoff = now(cur).Add(-DefaultOrphanAge)
	}
	location := opts.Location
	if location == "" {
		location = meta.Location()
	}
	location = strings.TrimSuffix(location, "/")
	if location == "" {
		return OrphanResult{}, &ArgumentError{Procedure: proc, Argument: "location", Reason: "the table has no location"}
	}
	if !insideLocation(meta.Location(), location) {
		return OrphanResult{}, &ArgumentError{Procedure: proc, Argument: "location",
			Reason: fmt.Sprintf("%q lies outside the table location %q", location, meta.Location())}
	}

	referenced, err := ReferencedFiles(ctx, cur)
	if err != nil {
		return OrphanResult{}, err
	}
	known := make(map[string]bool, len(referenced))
	for _, p := range referenced {
		for _, n := range normalizeLocations(p) {
			known[n] = true
		}
	}
	var orphans []string
	for fi, err := range cur.IO().List(ctx, location) {
		if err != nil {
			return OrphanResult{}, err
		}
		if known[normalizeLocation(fi.Location)] || !fi.ModTime.Before(cutoff) {
			continue
		}
		orphans = append(orphans, fi.Location)
	}
	slices.Sort(orphans)
	if opts.DryRun || len(orphans) == 0 {
		return OrphanResult{OrphanFileLocations: orphans}, nil
	}
	if _, err := removeAll(ctx, cur, orphans, opts.MaxConcurrentDeletes); err != nil {
		return OrphanResult{OrphanFileLocations: orphans}, err
	}
	return OrphanResult{OrphanFileLocations: orphans}, nil
}

// ReferencedFiles lists every file the table's metadata reaches: the
// current metadata file and those in the metadata log, statistics files,
// and for every snapshot its manifest list, manifests and content files
// (including files a manifest only records as deleted). Sorted, unique.
func ReferencedFiles(ctx context.Context, tbl *table.Table) ([]string, error) {
	meta := tbl.Metadata()
	r := newReachable()
	if err := r.collect(ctx, tbl, meta, meta.Snapshots(), nil, false); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	if tbl.MetadataLocation() != "" {
		set[tbl.MetadataLocation()] = true
	}
	for _, e := range meta.MetadataLog() {
		set[e.MetadataFile] = true
	}
	for _, st := range meta.Statistics() {
		set[st.StatisticsPath] = true
	}
	for _, st := range meta.PartitionStatistics() {
		set[st.StatisticsPath] = true
	}
	for p := range r.lists {
		set[p] = true
	}
	for p := range r.manifests {
		set[p] = true
	}
	for p := range r.files {
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// insideLocation reports whether loc is root or below it, after
// normalizing both (so "root/../x" is not inside root).
func insideLocation(root, loc string) bool {
	r, l := normalizeLocation(strings.TrimSuffix(root, "/")), normalizeLocation(loc)
	if r == "" || r == "/" && !strings.HasPrefix(l, "/") {
		return false
	}
	return l == r || strings.HasPrefix(l, strings.TrimSuffix(r, "/")+"/")
}

// normalizeLocations are every file a referenced location may name: its
// literal path and, for locations written percent-encoded, the decoded
// one (fileio.LocalPaths), so neither reading makes a live file look
// orphaned.
func normalizeLocations(loc string) []string {
	if strings.HasPrefix(loc, "file:") {
		if ps, err := fileio.LocalPaths(loc); err == nil {
			for i, p := range ps {
				ps[i] = path.Clean(p)
			}
			return ps
		}
	}
	return []string{normalizeLocation(loc)}
}

// normalizeLocation makes file:/x, file:///x and /x compare equal, so a
// spelling difference cannot make a live file look orphaned.
func normalizeLocation(loc string) string {
	if strings.HasPrefix(loc, "file:") {
		if p, err := fileio.LocalPath(loc); err == nil {
			return path.Clean(p)
		}
	}
	if strings.HasPrefix(loc, "/") {
		return path.Clean(loc)
	}
	// s3, s3a and s3n name the same objects (Java's equal-schemes default).
	if scheme, rest, ok := strings.Cut(loc, "://"); ok {
		switch strings.ToLower(scheme) {
		case "s3", "s3a", "s3n":
			bucket, key, _ := strings.Cut(rest, "/")
			return "s3://" + bucket + path.Clean("/"+key)
		}
	}
	return loc
}
