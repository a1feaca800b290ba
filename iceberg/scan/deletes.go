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
//   - a deletion vector (v3, a Puffin position delete) applies when it
//     references the data file and its data sequence number is >= the
//     data file's; position delete files then do not apply to that file;
//   - an equality delete applies when its data sequence number is > the
//     data file's and the partition is the same or its spec is
//     unpartitioned (a global delete).
type deleteIndex struct {
	posByPartition map[string][]DeleteFile
	dvByPath       map[string][]DeleteFile
	eqByPartition  map[string][]DeleteFile
	eqGlobal       []DeleteFile
}

func newDeleteIndex(deletes []DeleteFile, specs map[int]*iceberg.PartitionSpec) *deleteIndex {
	ix := &deleteIndex{posByPartition: map[string][]DeleteFile{}, dvByPath: map[string][]DeleteFile{}, eqByPartition: map[string][]DeleteFile{}}
	for _, d := range deletes {
		key := partitionKey(d.File.SpecID, d.File.Partition)
		switch d.File.Content {
		case iceberg.ContentPositionDeletes:
			if d.File.FileFormat == iceberg.FormatPuffin && d.File.ReferencedDataFile != nil {
				ref := *d.File.ReferencedDataFile
				ix.dvByPath[ref] = append(ix.dvByPath[ref], d)
				continue
			}
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
	// Several DVs for one file are kept so that the reader reports them.
	for _, d := range ix.dvByPath[f.FilePath] {
		if d.DataSequenceNumber >= dataSeq && partitionKey(d.File.SpecID, d.File.Partition) == key {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		for _, d := range ix.posByPartition[key] {
			ref := d.File.ReferencedDataFile
			if d.DataSequenceNumber >= dataSeq && (ref == nil || *ref == f.FilePath) {
				out = append(out, d)
			}
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
