package maintenance

import (
	"errors"
	"fmt"
)

// Sentinel errors; test with errors.Is. Errors from the table package
// (iceberg.ErrNoSuchSnapshot, iceberg.ErrNoSuchRef, *iceberg.ValidationError,
// iceberg.ErrCommitFailed) pass through wrapped.
var (
	// ErrGCDisabled: the table sets gc.enabled=false, so no procedure may
	// delete its files (they may be shared with another table).
	ErrGCDisabled = errors.New("maintenance: garbage collection is disabled for this table (gc.enabled=false)")
	// ErrInvalidArgument: a procedure argument is out of range or
	// inconsistent; the *ArgumentError names it.
	ErrInvalidArgument = errors.New("maintenance: invalid argument")
	// ErrNotAncestor: a rollback or fast-forward target is not an ancestor
	// of the branch head it must move from.
	ErrNotAncestor = errors.New("maintenance: snapshot is not an ancestor")
	// ErrSnapshotReferenced: an explicitly named snapshot cannot expire
	// because a branch or tag still points to it.
	ErrSnapshotReferenced = errors.New("maintenance: snapshot is still referenced by a branch or tag")
	// ErrRefExists: CreateRef without Replace or IfNotExists on a name in use.
	ErrRefExists = errors.New("maintenance: branch or tag already exists")
	// ErrRefTypeMismatch: a tag was named where a branch is required, or the
	// other way round.
	ErrRefTypeMismatch = errors.New("maintenance: ref is of the other type (branch vs tag)")
	// ErrMainBranch: the operation is not allowed on the main branch
	// (dropping it, or turning it into a tag).
	ErrMainBranch = errors.New("maintenance: not allowed on the main branch")
	// ErrCherrypickUnsupported: only append and dynamic-overwrite snapshots
	// can be cherry-picked.
	ErrCherrypickUnsupported = errors.New("maintenance: snapshot cannot be cherry-picked")
	// ErrAlreadyCherrypicked: the snapshot was already applied to main.
	ErrAlreadyCherrypicked = errors.New("maintenance: snapshot was already cherry-picked")
	// ErrUnknownWAPID: publish_changes found no staged snapshot with the
	// write-audit-publish id.
	ErrUnknownWAPID = errors.New("maintenance: no staged snapshot has this WAP id")
	// ErrTooManyConflicts: a metadata change kept losing to concurrent
	// commits after several recomputations.
	ErrTooManyConflicts = errors.New("maintenance: too many concurrent commits")
)

// ArgumentError names a bad procedure argument; it matches
// ErrInvalidArgument.
type ArgumentError struct {
	Procedure string // e.g. "expire_snapshots"
	Argument  string // Spark's argument name, e.g. "retain_last"
	Reason    string
}

func (e *ArgumentError) Error() string {
	return fmt.Sprintf("maintenance: %s: invalid argument %s: %s", e.Procedure, e.Argument, e.Reason)
}

func (e *ArgumentError) Unwrap() error { return ErrInvalidArgument }

// RefError names the branch or tag an operation failed on; Unwrap gives
// the cause (ErrRefExists, ErrRefTypeMismatch, iceberg.ErrNoSuchRef, ...).
type RefError struct {
	Op   string // "create branch", "drop tag", "fast-forward", ...
	Name string
	Err  error
}

func (e *RefError) Error() string { return fmt.Sprintf("maintenance: %s %q: %v", e.Op, e.Name, e.Err) }

func (e *RefError) Unwrap() error { return e.Err }

// SnapshotError names the snapshot an operation refused; Unwrap gives the
// cause (ErrNotAncestor, ErrSnapshotReferenced, ErrCherrypickUnsupported, ...).
type SnapshotError struct {
	Op         string
	SnapshotID int64
	Err        error
}

func (e *SnapshotError) Error() string {
	return fmt.Sprintf("maintenance: %s snapshot %d: %v", e.Op, e.SnapshotID, e.Err)
}

func (e *SnapshotError) Unwrap() error { return e.Err }
