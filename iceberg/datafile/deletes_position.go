package datafile

import (
	"context"
	"slices"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// loadPositionDeletes reads, from each position delete file, only the
// positions deleted in dataPath, and returns them sorted and unique (files
// need not list them in order). Whole files and row groups whose path
// bounds exclude dataPath are skipped.
func loadPositionDeletes(ctx context.Context, fio fileio.FileIO, dataPath string, deletes []iceberg.DataFile, cache *DeleteCache) ([]int64, error) {
	var out []int64
	for _, d := range deletes {
		if !pathInBounds(d, dataPath) {
			continue
		}
		var err error
		out, err = readPositionsFor(ctx, fio, d.FilePath, dataPath, out, cache)
		if err != nil {
			return nil, &FileError{Op: "read deletes", Path: d.FilePath, Err: err}
		}
	}
	if !slices.IsSorted(out) {
		slices.Sort(out)
	}
	return slices.Compact(out), nil
}

// pathInBounds uses the delete file's file_path bounds (inclusive; a
// truncated upper bound is rounded up by writers) to skip it.
func pathInBounds(d iceberg.DataFile, dataPath string) bool {
	if lo, ok := d.LowerBounds[DeleteFilePathID]; ok && dataPath < string(lo) {
		return false
	}
	if hi, ok := d.UpperBounds[DeleteFilePathID]; ok && dataPath > string(hi) {
		return false
	}
	return true
}
