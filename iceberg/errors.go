package iceberg

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrCommitFailed: the catalog's table pointer moved under the commit
	// (another writer won the compare-and-swap). Safe to retry.
	ErrCommitFailed = errors.New("iceberg: commit failed: table was changed concurrently")
	// ErrCommitStateUnknown: the commit's outcome cannot be known (I/O error
	// or cancellation after the swap was sent). Nothing written by the commit
	// may be deleted; the caller must check the table before retrying.
	ErrCommitStateUnknown = errors.New("iceberg: commit state unknown")

	ErrNoSuchTable          = errors.New("iceberg: no such table")
	ErrNoSuchNamespace      = errors.New("iceberg: no such namespace")
	ErrTableAlreadyExists   = errors.New("iceberg: table already exists")
	ErrNamespaceExists      = errors.New("iceberg: namespace already exists")
	ErrNamespaceNotEmpty    = errors.New("iceberg: namespace is not empty")
	ErrNoSuchSnapshot       = errors.New("iceberg: no such snapshot")
	ErrNoSuchRef            = errors.New("iceberg: no such branch or tag")
	ErrNoSuchField          = errors.New("iceberg: no such field")
	ErrInvalidSchema        = errors.New("iceberg: invalid schema")
	ErrInvalidMetadata      = errors.New("iceberg: invalid table metadata")
	ErrInvalidManifest      = errors.New("iceberg: invalid manifest")
	ErrInvalidDataFile      = errors.New("iceberg: invalid data file")
	ErrInvalidTransform     = errors.New("iceberg: invalid transform")
	ErrInvalidPartitionSpec = errors.New("iceberg: invalid partition spec")
	ErrInvalidExpression    = errors.New("iceberg: invalid expression")
	ErrTypeMismatch         = errors.New("iceberg: type mismatch")
	ErrNotNullViolation     = errors.New("iceberg: null value in required field")
	ErrNotFound             = errors.New("iceberg: file not found")
	ErrFileExists           = errors.New("iceberg: file already exists")
	ErrRequirementFailed    = errors.New("iceberg: commit requirement failed")
	ErrUnsupported          = errors.New("iceberg: unsupported")
	// ErrInvalidIdentifier: a namespace or table name that cannot name a
	// catalog entry or a directory (empty, "." or "..", a slash or
	// backslash, a control character, a dot in a namespace level, too
	// long; see CheckIdentifier). Every catalog returns it for such names.
	ErrInvalidIdentifier = errors.New("iceberg: invalid identifier")
	// ErrTooLarge: a file, or a section a file's own length fields
	// announce, is larger than its reader will hold in memory (see
	// MaxMetadataFileBytes and the limits of the manifest, Parquet and
	// Puffin readers); nothing is allocated for it.
	ErrTooLarge = errors.New("iceberg: file too large")
	// ErrIO: storage failed on a file for a reason of its own (permission
	// denied, disk full, an I/O error); *fileio.PathError matches it
	// whenever it matches no other sentinel of this package.
	ErrIO = errors.New("iceberg: file I/O failed")
)

// roots are the sentinels above that name a kind of failure.
var roots = []error{
	ErrCommitFailed, ErrCommitStateUnknown, ErrNoSuchTable, ErrNoSuchNamespace,
	ErrTableAlreadyExists, ErrNamespaceExists, ErrNamespaceNotEmpty, ErrNoSuchSnapshot,
	ErrNoSuchRef, ErrNoSuchField, ErrInvalidSchema, ErrInvalidMetadata, ErrInvalidManifest,
	ErrInvalidDataFile, ErrInvalidTransform, ErrInvalidPartitionSpec, ErrInvalidExpression,
	ErrTypeMismatch, ErrNotNullViolation, ErrNotFound, ErrFileExists, ErrRequirementFailed,
	ErrUnsupported, ErrInvalidIdentifier, ErrTooLarge, ErrIO,
	ErrInvalidViewMetadata, ErrNoSuchView, ErrViewAlreadyExists,
}

// Classified reports whether err matches one of this package's sentinels
// (or is a *ValidationError), so wrappers that add a sentinel of their own
// for unclassified causes can tell.
func Classified(err error) bool {
	var ve *ValidationError
	if errors.As(err, &ve) {
		return true
	}
	for _, r := range roots {
		if errors.Is(err, r) {
			return true
		}
	}
	return false
}

// ValidationError reports that a row-level operation conflicts with commits
// made since the operation's starting snapshot. It is never retried.
type ValidationError struct {
	Table              string // namespace.table
	IsolationLevel     string // "serializable" or "snapshot"
	Filter             string // the conflict filter, printed
	Reason             string // what was found
	ConflictingFiles   []string
	StartingSnapshotID int64
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "iceberg: validation failed for %s (%s isolation", e.Table, e.IsolationLevel)
	if e.Filter != "" {
		fmt.Fprintf(&b, ", conflict filter %s", e.Filter)
	}
	fmt.Fprintf(&b, "): %s", e.Reason)
	if len(e.ConflictingFiles) > 0 {
		fmt.Fprintf(&b, ": %s", strings.Join(e.ConflictingFiles, ", "))
	}
	return b.String()
}

// CorruptFileError wraps a failure to decode a metadata, manifest or data
// file; Unwrap gives the cause, Is matches the kind sentinel
// (ErrInvalidMetadata, ErrInvalidManifest, ErrInvalidDataFile).
type CorruptFileError struct {
	Path string
	Kind error
	Err  error
}

func (e *CorruptFileError) Error() string {
	return fmt.Sprintf("%v: %s: %v", e.Kind, e.Path, e.Err)
}

func (e *CorruptFileError) Unwrap() []error { return []error{e.Kind, e.Err} }
