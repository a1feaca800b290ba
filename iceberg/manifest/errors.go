package manifest

import (
	"errors"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// Sentinel errors of this package; every decoding failure also matches
// iceberg.ErrInvalidManifest.
var (
	// ErrUnsupportedVersion: a format version other than 1, 2 or 3.
	ErrUnsupportedVersion = errors.New("manifest: unsupported format version")
	// ErrUnsupportedCodec: an Avro codec other than null, deflate, snappy, zstandard.
	ErrUnsupportedCodec = fmt.Errorf("%w: unsupported avro codec", iceberg.ErrInvalidManifest)
	// ErrInvalidEntry: an entry passed to a writer breaks the format's rules
	// (e.g. an EXISTING entry without a sequence number in v2).
	ErrInvalidEntry = errors.New("manifest: invalid entry")
	// ErrUnassignedSequence: a manifest with an unassigned sequence number
	// that the committing snapshot did not add.
	ErrUnassignedSequence = errors.New("manifest: unassigned sequence number from another snapshot")
	// ErrWriterClosed: an entry written to a ManifestWriter after Close.
	ErrWriterClosed = errors.New("manifest: write after Close")
	// ErrMissingArgument: a writer constructor was given a nil spec or schema.
	ErrMissingArgument = errors.New("manifest: missing argument")
)

// SchemaError reports that a file's Avro schema cannot be read as a
// manifest or manifest list: a known field id has an unexpected type, or a
// required field is missing. It matches iceberg.ErrInvalidManifest.
type SchemaError struct {
	FieldID int    // Iceberg field id, 0 when not about one field
	Field   string // field name in the file, if known
	Reason  string
}

func (e *SchemaError) Error() string {
	if e.FieldID != 0 || e.Field != "" {
		return fmt.Sprintf("manifest: avro schema field %q (id %d): %s", e.Field, e.FieldID, e.Reason)
	}
	return "manifest: avro schema: " + e.Reason
}

func (e *SchemaError) Unwrap() error { return iceberg.ErrInvalidManifest }

// ValueError reports a partition value whose Go type does not fit the
// partition field's type. It matches iceberg.ErrTypeMismatch.
type ValueError struct {
	FieldID int
	Field   string
	Type    iceberg.Type
	Value   any
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("manifest: partition field %q (id %d) of type %s cannot hold %T value %v",
		e.Field, e.FieldID, e.Type, e.Value, e.Value)
}

func (e *ValueError) Unwrap() error { return iceberg.ErrTypeMismatch }

// corrupt wraps a decoding failure so it matches iceberg.ErrInvalidManifest,
// as a *iceberg.CorruptFileError when the path is known.
func corrupt(path string, err error) error {
	if err == nil {
		return nil
	}
	if path != "" {
		var cf *iceberg.CorruptFileError
		if errors.As(err, &cf) {
			return err
		}
		return &iceberg.CorruptFileError{Path: path, Kind: iceberg.ErrInvalidManifest, Err: err}
	}
	if errors.Is(err, iceberg.ErrInvalidManifest) {
		return err
	}
	return fmt.Errorf("%w: %w", iceberg.ErrInvalidManifest, err)
}
