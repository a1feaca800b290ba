package manifest

import (
	"fmt"
	"io"

	"github.com/hamba/avro/v2"
	"github.com/icesql/icesql/iceberg"
)

// ReadManifestList reads a manifest list, binding fields by field id, so
// both Java's and the spec's names for fields 504-506 read. v1 lists read
// with content data and sequence numbers 0.
func ReadManifestList(r io.Reader, opts ...ReadOption) ([]iceberg.ManifestFile, error) {
	cfg, c, err := openContainer(r, opts)
	if err != nil {
		return nil, err
	}
	read, err := manifestFilePlan(c.schema)
	if err != nil {
		return nil, corrupt(cfg.path, err)
	}
	out := []iceberg.ManifestFile{}
	d := newDec()
	for blk, err := range c.blocks {
		if err != nil {
			return nil, corrupt(cfg.path, err)
		}
		d.reset(blk.data)
		for i := int64(0); i < blk.count; i++ {
			var m iceberg.ManifestFile
			read(d, &m)
			if d.r.Error != nil {
				return nil, corrupt(cfg.path, fmt.Errorf("manifest list entry %d: %w", len(out), d.r.Error))
			}
			out = append(out, m)
		}
	}
	return out, nil
}

type mfile = iceberg.ManifestFile

func manifestFilePlan(s avro.Schema) (func(*dec, *mfile), error) {
	return recordPlan(s, func(id int, fs avro.Schema) (step[mfile], bool, error) {
		switch id {
		case idManifestPath:
			return bindOpt(fs, stringBase, func(m *mfile, v string) { m.Path = v })
		case idManifestLength:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.Length = v })
		case idSpecID:
			return bindOpt(fs, intBase, func(m *mfile, v int32) { m.SpecID = int(v) })
		case idListContent:
			return bindOpt(fs, intBase, func(m *mfile, v int32) { m.Content = iceberg.ManifestContent(v) })
		case idSequenceNumber:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.SequenceNumber = v })
		case idMinSequenceNumber:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.MinSequenceNumber = v })
		case idAddedSnapshotID:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.AddedSnapshotID = v })
		case idAddedFilesCount:
			return bindOpt(fs, intBase, func(m *mfile, v int32) { m.AddedFilesCount = v })
		case idExistingFiles:
			return bindOpt(fs, intBase, func(m *mfile, v int32) { m.ExistingFilesCount = v })
		case idDeletedFiles:
			return bindOpt(fs, intBase, func(m *mfile, v int32) { m.DeletedFilesCount = v })
		case idAddedRows:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.AddedRowsCount = v })
		case idExistingRows:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.ExistingRowsCount = v })
		case idDeletedRows:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.DeletedRowsCount = v })
		case idPartitions:
			return bindOpt(fs, arrayBase(summaryBase), func(m *mfile, v []iceberg.FieldSummary) { m.Partitions = v })
		case idListKeyMetadata:
			return bindOpt(fs, bytesBase, func(m *mfile, v []byte) { m.KeyMetadata = v })
		case idListFirstRowID:
			return bindOpt(fs, longBase, func(m *mfile, v int64) { m.FirstRowID = &v })
		}
		return nil, false, nil
	}, idManifestPath, idManifestLength, idSpecID, idAddedSnapshotID)
}

func summaryBase(s avro.Schema) (func(*dec) iceberg.FieldSummary, error) {
	type fs = iceberg.FieldSummary
	read, err := recordPlan(s, func(id int, t avro.Schema) (step[fs], bool, error) {
		switch id {
		case idContainsNull:
			return bindOpt(t, boolBase, func(f *fs, v bool) { f.ContainsNull = v })
		case idContainsNaN:
			return bindOpt(t, boolBase, func(f *fs, v bool) { f.ContainsNaN = &v })
		case idLowerBound:
			return bindOpt(t, bytesBase, func(f *fs, v []byte) { f.LowerBound = v })
		case idUpperBound:
			return bindOpt(t, bytesBase, func(f *fs, v []byte) { f.UpperBound = v })
		}
		return nil, false, nil
	}, idContainsNull)
	if err != nil {
		return nil, err
	}
	return func(d *dec) fs {
		var f fs
		read(d, &f)
		return f
	}, nil
}
