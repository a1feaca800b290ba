package datafile

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// openParquet checks the file's trailer before handing it to parquetfile:
// the footer length is trusted by the Parquet library for an allocation,
// so a corrupt length must be rejected first.
func openParquet(in fileio.InputFile) (*parquetfile.Reader, error) {
	if err := checkParquetTrailer(in); err != nil {
		return nil, &iceberg.CorruptFileError{Path: in.Location(), Kind: iceberg.ErrInvalidDataFile, Err: err}
	}
	return parquetfile.Open(in, in.Size())
}

func checkParquetTrailer(in fileio.InputFile) error {
	size := in.Size()
	if size < 12 {
		return fmt.Errorf("file of %d bytes is too small for parquet", size)
	}
	var tail [8]byte
	if _, err := in.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return errors.New("missing parquet magic at the end of the file")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("footer length %d exceeds the file size %d", n, size)
	}
	return nil
}
