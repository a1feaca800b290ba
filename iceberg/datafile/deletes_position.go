package datafile

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// loadPositionDeletes reads, from each position delete file, only the
// positions deleted in dataPath, and returns them sorted and unique.
// Delete files are sorted by path, so reading stops past dataPath and row
// groups and whole files whose path bounds exclude it are skipped.
func loadPositionDeletes(ctx context.Context, fio fileio.FileIO, dataPath string, deletes []iceberg.DataFile) ([]int64, error) {
	var out []int64
	for _, d := range deletes {
		if !pathInBounds(d, dataPath) {
			continue
		}
		var err error
		out, err = readPositionsFor(ctx, fio, d.FilePath, dataPath, out)
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

func readPositionsFor(ctx context.Context, fio fileio.FileIO, location, dataPath string, out []int64) ([]int64, error) {
	in, err := fio.Open(ctx, location)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	pf, err := openArrowParquet(in)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	pathCol, posCol, err := positionDeleteColumns(pf.MetaData())
	if err != nil {
		return nil, err
	}
	var groups []int
	for i := 0; i < pf.NumRowGroups(); i++ {
		lo, hi, ok := pathStats(pf.MetaData().RowGroup(i), pathCol)
		if ok && dataPath < lo {
			break // sorted by path: no later group holds it
		}
		if ok && dataPath > hi {
			continue
		}
		groups = append(groups, i)
	}
	if len(groups) == 0 {
		return out, nil
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	if err != nil {
		return nil, corruptDelete(location, err)
	}
	rr, err := fr.GetRecordReader(ctx, []int{pathCol, posCol}, groups)
	if err != nil {
		return nil, corruptDelete(location, err)
	}
	defer rr.Release()
	for {
		rec, err := rr.Read()
		if err == io.EOF || (err == nil && rec == nil) {
			return out, nil
		}
		if err != nil {
			return nil, corruptDelete(location, err)
		}
		paths, ok1 := rec.Column(0).(*array.String)
		pos, ok2 := rec.Column(1).(*array.Int64)
		if !ok1 || !ok2 {
			return nil, corruptDelete(location, fmt.Errorf("columns are %v and %v, want string and long", rec.Column(0).DataType(), rec.Column(1).DataType()))
		}
		n := paths.Len()
		if n == 0 {
			continue
		}
		if paths.Value(0) > dataPath {
			return out, nil
		}
		lo := sort.Search(n, func(i int) bool { return paths.Value(i) >= dataPath })
		for i := lo; i < n && paths.Value(i) == dataPath; i++ {
			if pos.IsNull(i) || pos.Value(i) < 0 {
				return nil, corruptDelete(location, fmt.Errorf("invalid position at row %d", i))
			}
			out = append(out, pos.Value(i))
		}
		if paths.Value(n-1) > dataPath {
			return out, nil
		}
	}
}

func openArrowParquet(in fileio.InputFile) (*file.Reader, error) {
	pf, err := file.NewParquetReader(io.NewSectionReader(in, 0, in.Size()))
	if err != nil {
		return nil, corruptDelete(in.Location(), err)
	}
	return pf, nil
}

func corruptDelete(location string, err error) error {
	return &iceberg.CorruptFileError{Path: location, Kind: iceberg.ErrInvalidDataFile, Err: err}
}

// positionDeleteColumns finds the file_path and pos leaves by field id,
// falling back to their names.
func positionDeleteColumns(md *metadata.FileMetaData) (pathCol, posCol int, err error) {
	pathCol, posCol = -1, -1
	for i := 0; i < md.Schema.NumColumns(); i++ {
		c := md.Schema.Column(i)
		switch id := c.SchemaNode().FieldID(); {
		case id == DeleteFilePathID, id <= 0 && c.Path() == DeleteFilePathName:
			pathCol = i
		case id == DeleteFilePosID, id <= 0 && c.Path() == DeleteFilePosName:
			posCol = i
		}
	}
	if pathCol < 0 || posCol < 0 {
		return 0, 0, corruptDelete("", fmt.Errorf("position delete file has no file_path/pos columns"))
	}
	return pathCol, posCol, nil
}

// pathStats returns the min and max file_path of a row group, if recorded.
func pathStats(rg *metadata.RowGroupMetaData, col int) (lo, hi string, ok bool) {
	cc, err := rg.ColumnChunk(col)
	if err != nil {
		return "", "", false
	}
	st, err := cc.Statistics()
	if err != nil || st == nil || !st.HasMinMax() {
		return "", "", false
	}
	bs, isBytes := st.(*metadata.ByteArrayStatistics)
	if !isBytes {
		return "", "", false
	}
	return string(bs.Min()), string(bs.Max()), true
}
