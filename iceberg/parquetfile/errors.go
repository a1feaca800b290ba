package parquetfile

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// ErrWriterClosed is returned when writing to a closed Writer.
var ErrWriterClosed = errors.New("parquetfile: writer is closed")

// ErrReaderClosed is returned by RecordReader.Next after Close.
var ErrReaderClosed = errors.New("parquetfile: record reader is closed")

// ErrUnknownCodec is returned for an unsupported compression codec name.
var ErrUnknownCodec = errors.New("parquetfile: unknown compression codec")

// ErrCompressionLevel is returned for a compression level the codec does
// not have.
var ErrCompressionLevel = errors.New("parquetfile: compression level out of range")

// ErrNoFieldIDs is returned when a file's columns carry no field ids and the
// caller supplied no name mapping.
var ErrNoFieldIDs = errors.New("parquetfile: file has no field ids and no name mapping was given")

// corrupt wraps a decoding failure so that it matches iceberg.ErrInvalidDataFile.
func corrupt(format string, args ...any) error {
	return &iceberg.CorruptFileError{Kind: iceberg.ErrInvalidDataFile, Err: fmt.Errorf(format, args...)}
}

// ErrEncrypted is returned for an encrypted Parquet file (Parquet Modular
// Encryption: an encrypted footer, "PARE" magic, or a plaintext footer
// over encrypted columns): the reader has no keys and does not decrypt.
var ErrEncrypted = fmt.Errorf("%w: encrypted Parquet files are not supported", iceberg.ErrUnsupported)

// ErrFooterMismatch is returned when a file's footer disagrees with what
// the manifest records of it (ReadOptions.ExpectedFieldIDs and
// ExpectedRows): a listed field missing from the footer schema or of
// another physical type, or another row count. A footer damaged into a
// different but decodable one is refused rather than read as nulls or
// as another column's values. Matches iceberg.ErrInvalidDataFile.
var ErrFooterMismatch = fmt.Errorf("parquetfile: footer disagrees with the manifest: %w", iceberg.ErrInvalidDataFile)

// ShreddedVariantError is a shredded variant column (VariantShredding.md)
// that cannot be read: a layout or a type the spec does not allow, or a
// row whose value and typed_value contradict each other. Column is the
// path of the column in the file, dotted. It matches
// iceberg.ErrInvalidDataFile.
type ShreddedVariantError struct {
	Column string
	Reason string
}

func (e *ShreddedVariantError) Error() string {
	return fmt.Sprintf("parquetfile: shredded variant %q: %s", e.Column, e.Reason)
}

func (e *ShreddedVariantError) Unwrap() error { return iceberg.ErrInvalidDataFile }

func shredErr(col, reason string) error { return &ShreddedVariantError{Column: col, Reason: reason} }

// InlineCRSError is a GEOMETRY or GEOGRAPHY column whose CRS the file
// gives inline as PROJJSON (GeoParquet and the Parquet spec allow it).
// Iceberg's type string geometry(C) names a CRS only by identifier
// ("srid:4326", "OGC:CRS84") or by reference ("projjson:<table
// property>"): a JSON document, its commas, quotes and parentheses, is
// no C, and reading the column under another CRS would misplace its
// values. The file is well formed, so it matches iceberg.ErrUnsupported,
// not ErrInvalidDataFile; a writer that stores the PROJJSON in a table
// property and references it makes the column readable.
type InlineCRSError struct {
	Column string // the column's name in the file
	Kind   string // "geometry" or "geography"
}

func (e *InlineCRSError) Error() string {
	return fmt.Sprintf("parquetfile: %s column %q has an inline PROJJSON CRS, which no Iceberg type string can hold (Iceberg names a CRS srid:<n>, <authority>:<code> or projjson:<table property>)", e.Kind, e.Column)
}

func (e *InlineCRSError) Unwrap() error { return iceberg.ErrUnsupported }
