package datafile

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/parquet-go/parquet-go"
)

// Position delete files are decoded page by page with parquet-go (whose
// footer parsing parquetfile.Open guards), validating every offset, level
// and index before use: corrupt files are errors, never panics.

// readPositionsFor appends to out the positions that the delete file at
// location records for dataPath.
//
// The spec requires rows sorted by file_path, but some writers (iceberg-go
// v0.7.0) emit files covering several data files unsorted, and Java reads
// them. So the reader only relies on the order once the cache says a full
// read found the file sorted: then it stops at the first larger path.
// Otherwise it reads the file_path column of every row group whose
// statistics admit dataPath, and with a cache it reads all of them once to
// learn the order for later tasks. Only dataPath's positions are kept.
func readPositionsFor(ctx context.Context, fio fileio.FileIO, location, dataPath string, out []int64, cache *DeleteCache) ([]int64, error) {
	in, err := fio.Open(ctx, location)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	// Validates the footer and that every column chunk lies in the file.
	if _, err := openParquet(in); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(in, in.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, corruptDelete(location, err)
	}
	pathCol, posCol, err := positionDeleteColumns(f)
	if err != nil {
		return nil, corruptDelete(location, err)
	}
	sorted, known := cache.positionFileSorted(location)
	learn := cache != nil && !known
	scan := pathScan{want: []byte(dataPath), stopPast: known && sorted}
	md := f.Metadata()
	for i, rg := range f.RowGroups() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if lo, hi, ok := pathStats(md.RowGroups[i].Columns[pathCol.Index()].MetaData.Statistics); ok && !learn {
			if dataPath < lo && scan.stopPast {
				break // sorted by path: no later group holds it
			}
			if dataPath < lo || dataPath > hi {
				continue
			}
		}
		chunks := rg.ColumnChunks()
		ranges, err := scan.rowGroup(chunks[pathCol.Index()], pathCol, rg.NumRows())
		if err != nil {
			return nil, corruptDelete(location, err)
		}
		if len(ranges) > 0 {
			if out, err = positionsIn(chunks[posCol.Index()], posCol, ranges, rg.NumRows(), out); err != nil {
				return nil, corruptDelete(location, err)
			}
		}
		if scan.past {
			break
		}
	}
	if learn {
		cache.setPositionFileSorted(location, !scan.unsorted)
	}
	return out, nil
}

func corruptDelete(location string, err error) error {
	return &iceberg.CorruptFileError{Path: location, Kind: iceberg.ErrInvalidDataFile, Err: err}
}

// positionDeleteColumns finds the file_path and pos leaves by field id,
// falling back to their names, and checks their types.
func positionDeleteColumns(f *parquet.File) (pathCol, posCol *parquet.Column, err error) {
	for _, c := range f.Root().Columns() {
		if !c.Leaf() {
			continue
		}
		switch {
		case c.ID() == DeleteFilePathID, c.ID() == 0 && c.Name() == DeleteFilePathName:
			pathCol = c
		case c.ID() == DeleteFilePosID, c.ID() == 0 && c.Name() == DeleteFilePosName:
			posCol = c
		}
	}
	if pathCol == nil || posCol == nil {
		return nil, nil, errors.New("position delete file has no file_path/pos columns")
	}
	if pathCol.Type().Kind() != parquet.ByteArray || posCol.Type().Kind() != parquet.Int64 {
		return nil, nil, fmt.Errorf("file_path is %v and pos is %v, want BYTE_ARRAY and INT64", pathCol.Type().Kind(), posCol.Type().Kind())
	}
	if pathCol.MaxRepetitionLevel() != 0 || posCol.MaxRepetitionLevel() != 0 || pathCol.MaxDefinitionLevel() > 1 || posCol.MaxDefinitionLevel() > 1 {
		return nil, nil, errors.New("file_path and pos must be top-level primitive columns")
	}
	return pathCol, posCol, nil
}

// pathStats returns a row group's min and max file_path, if recorded with
// the correct (unsigned byte) ordering.
func pathStats(st parquetStats) (lo, hi string, ok bool) {
	if st.MinValue == nil || st.MaxValue == nil {
		return "", "", false
	}
	return string(st.MinValue), string(st.MaxValue), true
}

// pageRows walks the pages of a required (or never-null optional) column
// chunk, calling visit with each page's decoded values and the row number
// of its first value. visit returns false to stop.
func pageRows(cc parquet.ColumnChunk, col *parquet.Column, numRows int64, visit func(first int64, p parquet.Page) (bool, error)) error {
	pages := cc.Pages()
	defer pages.Close()
	var row int64
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		n := p.NumValues()
		if n < 0 || row+n > numRows {
			parquet.Release(p)
			return fmt.Errorf("column %s has more values than the row group's %d rows", col.Name(), numRows)
		}
		if col.MaxDefinitionLevel() > 0 {
			for _, d := range p.DefinitionLevels() {
				if d != 1 {
					parquet.Release(p)
					return fmt.Errorf("null in column %s", col.Name())
				}
			}
		}
		more, err := visit(row, p)
		parquet.Release(p)
		if err != nil || !more {
			return err
		}
		row += n
	}
	if row != numRows {
		return fmt.Errorf("column %s has %d values in a row group of %d rows", col.Name(), row, numRows)
	}
	return nil
}
