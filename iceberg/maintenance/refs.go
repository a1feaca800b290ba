package maintenance

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// RefOptions configure CreateRef. Zero values mean "not set": the
// history.expire.* table properties then apply.
type RefOptions struct {
	// SnapshotID is the snapshot the ref points to; nil means main's
	// current snapshot.
	SnapshotID *int64
	// Replace moves an existing ref of the same type (CREATE OR REPLACE).
	Replace bool
	// IfNotExists leaves an existing ref of the same type alone.
	IfNotExists bool
	// RetainMs is the ref's max-ref-age-ms (RETAIN n DAYS).
	RetainMs int64
	// MinSnapshotsToKeep and MaxSnapshotAgeMs are branch retention
	// (WITH SNAPSHOT RETENTION); tags may not set them.
	MinSnapshotsToKeep int
	MaxSnapshotAgeMs   int64
}

// CreateRef creates (or with Replace, replaces) a branch or, when tag is
// set, a tag. Creating a ref whose name is taken by the other type, or
// replacing main with a tag, is refused.
func CreateRef(ctx context.Context, tbl *table.Table, name string, tag bool, opts RefOptions) (RefResult, error) {
	kind, op := iceberg.BranchRef, "create branch"
	if tag {
		kind, op = iceberg.TagRef, "create tag"
	}
	refErr := func(err error) error { return &RefError{Op: op, Name: name, Err: err} }
	if name == "" {
		return RefResult{}, refErr(&ArgumentError{Procedure: op, Argument: "name", Reason: "empty ref name"})
	}
	if tag && name == iceberg.MainBranch {
		return RefResult{}, refErr(ErrMainBranch)
	}
	if opts.Replace && opts.IfNotExists {
		return RefResult{}, refErr(&ArgumentError{Procedure: op, Argument: "replace", Reason: "REPLACE and IF NOT EXISTS cannot be combined"})
	}
	if opts.RetainMs < 0 || opts.MinSnapshotsToKeep < 0 || opts.MaxSnapshotAgeMs < 0 {
		return RefResult{}, refErr(&ArgumentError{Procedure: op, Argument: "retention", Reason: "retention values must be positive"})
	}
	if tag && (opts.MinSnapshotsToKeep != 0 || opts.MaxSnapshotAgeMs != 0) {
		return RefResult{}, refErr(&ArgumentError{Procedure: op, Argument: "retention",
			Reason: "tags cannot set snapshot retention (min snapshots to keep, max snapshot age)"})
	}
	res := RefResult{Name: name, Type: kind}
	_, err := commitMetadata(ctx, tbl, func(t *table.Table) ([]iceberg.Update, error) {
		m := t.Metadata()
		res.Created = true
		old, exists := m.Ref(name)
		if exists {
			if old.Type != kind {
				return nil, refErr(fmt.Errorf("%w: %q is a %s", ErrRefTypeMismatch, name, old.Type))
			}
			switch {
			case opts.IfNotExists:
				res.SnapshotID, res.Created = old.SnapshotID, false
				return nil, nil
			case !opts.Replace:
				return nil, refErr(ErrRefExists)
			}
		}
		var id int64
		switch {
		case opts.SnapshotID != nil:
			if _, ok := m.SnapshotByID(*opts.SnapshotID); !ok {
				return nil, refErr(fmt.Errorf("%w: %d", iceberg.ErrNoSuchSnapshot, *opts.SnapshotID))
			}
			id = *opts.SnapshotID
		case m.CurrentSnapshot() != nil:
			id = m.CurrentSnapshot().SnapshotID
		default:
			return nil, refErr(fmt.Errorf("%w: the table has no current snapshot; name one", iceberg.ErrNoSuchSnapshot))
		}
		ref := iceberg.SnapshotRef{SnapshotID: id, Type: kind}
		if opts.RetainMs > 0 {
			ref.MaxRefAgeMs = &opts.RetainMs
		}
		if opts.MinSnapshotsToKeep > 0 {
			ref.MinSnapshotsToKeep = &opts.MinSnapshotsToKeep
		}
		if opts.MaxSnapshotAgeMs > 0 {
			ref.MaxSnapshotAgeMs = &opts.MaxSnapshotAgeMs
		}
		res.SnapshotID = id
		return []iceberg.Update{iceberg.SetSnapshotRefUpdate{Name: name, Ref: ref}}, nil
	})
	if err != nil {
		return RefResult{}, err
	}
	return res, nil
}

// DropRef removes a branch or, when tag is set, a tag. Dropping main is
// refused; naming a ref of the other type is an error; a missing ref is an
// error unless ifExists. Snapshots only the ref kept alive stay until the
// next ExpireSnapshots.
func DropRef(ctx context.Context, tbl *table.Table, name string, tag bool, ifExists bool) error {
	kind, op := iceberg.BranchRef, "drop branch"
	if tag {
		kind, op = iceberg.TagRef, "drop tag"
	}
	refErr := func(err error) error { return &RefError{Op: op, Name: name, Err: err} }
	if name == iceberg.MainBranch {
		return refErr(ErrMainBranch)
	}
	_, err := commitMetadata(ctx, tbl, func(t *table.Table) ([]iceberg.Update, error) {
		old, ok := t.Metadata().Ref(name)
		switch {
		case !ok && ifExists:
			return nil, nil
		case !ok:
			return nil, refErr(iceberg.ErrNoSuchRef)
		case old.Type != kind:
			return nil, refErr(fmt.Errorf("%w: %q is a %s", ErrRefTypeMismatch, name, old.Type))
		}
		// Setting the ref to itself first makes a concurrent move of it
		// fail this commit (the requirement is on its current head).
		return []iceberg.Update{iceberg.SetSnapshotRefUpdate{Name: name, Ref: old}, iceberg.RemoveSnapshotRefUpdate{Name: name}}, nil
	})
	return err
}
