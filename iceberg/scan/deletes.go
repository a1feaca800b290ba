package scan

import (
	"sort"

	"github.com/icesql/icesql/iceberg"
)

// deleteIndex finds the delete files that apply to a data file, following
// the spec's scan planning rules:
//   - a position delete applies when its data sequence number is >= the
//     data file's, the partition is the same, and its referenced data file
//     is unset or is the data file;
//   - an equality delete applies when its data sequence number is > the
//     data file's and the partition is the same or its spec is
//     unpartitioned (a global delete).
type deleteIndex struct {
	posByPartition map[string][]DeleteFile
	eqByPartition  map[string][]DeleteFile
	eqGlobal       []DeleteFile
}

func newDeleteIndex(deletes []DeleteFile, specs map[int]*iceberg.PartitionSpec) *deleteIndex {
	ix := &deleteIndex{posByPartition: map[string][]DeleteFile{}, eqByPartition: map[string][]DeleteFile{}}
	for _, d := range deletes {
		key := partitionKey(d.File.SpecID, d.File.Partition)
		switch d.File.Content {
		case iceberg.ContentPositionDeletes:
			ix.posByPartition[key] = append(ix.posByPartition[key], d)
		case iceberg.ContentEqualityDeletes:
			if spec, ok := specs[d.File.SpecID]; ok && spec.IsUnpartitioned() {
				ix.eqGlobal = append(ix.eqGlobal, d)
			} else {
				ix.eqByPartition[key] = append(ix.eqByPartition[key], d)
			}
		}
	}
	return ix
}

func (ix *deleteIndex) forFile(f *iceberg.DataFile, dataSeq int64) []DeleteFile {
	var out []DeleteFile
	key := partitionKey(f.SpecID, f.Partition)
	for _, d := range ix.posByPartition[key] {
		ref := d.File.ReferencedDataFile
		if d.DataSequenceNumber >= dataSeq && (ref == nil || *ref == f.FilePath) {
			out = append(out, d)
		}
	}
	for _, list := range [][]DeleteFile{ix.eqByPartition[key], ix.eqGlobal} {
		for _, d := range list {
			if d.DataSequenceNumber > dataSeq {
				out = append(out, d)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].DataSequenceNumber < out[j].DataSequenceNumber })
	return out
}
