package table

import (
	"context"
	"errors"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// PurgeFiles removes every file reachable from a dropped table's metadata:
// data and delete files, manifests, manifest lists, statistics and
// metadata files (metadataLocation and those in the metadata log).
func PurgeFiles(ctx context.Context, fio fileio.FileIO, meta *iceberg.TableMetadata, metadataLocation string) error {
	seen := map[string]bool{}
	var files []string
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	var errs []error
	for _, snap := range meta.Snapshots() {
		mfs, err := ManifestsOf(ctx, fio, snap)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, mf := range mfs {
			if seen[mf.Path] {
				continue
			}
			entries, err := EntriesOf(ctx, fio, meta, mf)
			if err != nil {
				errs = append(errs, err)
			}
			for _, e := range entries {
				add(e.DataFile.FilePath)
			}
			add(mf.Path)
		}
		add(snap.ManifestList)
	}
	for _, sf := range meta.Statistics() {
		add(sf.StatisticsPath)
	}
	for _, sf := range meta.PartitionStatistics() {
		add(sf.StatisticsPath)
	}
	for _, m := range meta.MetadataLog() {
		add(m.MetadataFile)
	}
	add(metadataLocation)
	for _, f := range files {
		if err := fio.Remove(ctx, f); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
