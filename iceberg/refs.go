package iceberg

// MainBranch is the branch that current-snapshot-id tracks.
const MainBranch = "main"

// RefType is "branch" or "tag".
type RefType string

const (
	BranchRef RefType = "branch"
	TagRef    RefType = "tag"
)

// SnapshotRef is a named branch or tag. Nil retention fields mean "use the
// history.expire.* table property".
type SnapshotRef struct {
	SnapshotID         int64   `json:"snapshot-id"`
	Type               RefType `json:"type"`
	MinSnapshotsToKeep *int    `json:"min-snapshots-to-keep,omitempty"`
	MaxSnapshotAgeMs   *int64  `json:"max-snapshot-age-ms,omitempty"`
	MaxRefAgeMs        *int64  `json:"max-ref-age-ms,omitempty"`
}

// NewBranch returns a branch ref with default retention.
func NewBranch(snapshotID int64) SnapshotRef {
	return SnapshotRef{SnapshotID: snapshotID, Type: BranchRef}
}

// NewTag returns a tag ref with default retention.
func NewTag(snapshotID int64) SnapshotRef {
	return SnapshotRef{SnapshotID: snapshotID, Type: TagRef}
}

func (r SnapshotRef) equal(o SnapshotRef) bool {
	return r.SnapshotID == o.SnapshotID && r.Type == o.Type &&
		eqPtr(r.MinSnapshotsToKeep, o.MinSnapshotsToKeep) &&
		eqPtr(r.MaxSnapshotAgeMs, o.MaxSnapshotAgeMs) &&
		eqPtr(r.MaxRefAgeMs, o.MaxRefAgeMs)
}

func (r SnapshotRef) validate(name string) error {
	switch r.Type {
	case BranchRef:
	case TagRef:
		if r.MinSnapshotsToKeep != nil || r.MaxSnapshotAgeMs != nil {
			return metaErrorf(ErrInvalidMetadata, "tag %q may not set branch retention (min-snapshots-to-keep, max-snapshot-age-ms)", name)
		}
		if name == MainBranch {
			return metaErrorf(ErrInvalidMetadata, "ref %q must be a branch", MainBranch)
		}
	default:
		return metaErrorf(ErrInvalidMetadata, "ref %q has invalid type %q (want branch or tag)", name, r.Type)
	}
	if r.MinSnapshotsToKeep != nil && *r.MinSnapshotsToKeep <= 0 {
		return metaErrorf(ErrInvalidMetadata, "ref %q: min-snapshots-to-keep must be positive, got %d", name, *r.MinSnapshotsToKeep)
	}
	if r.MaxSnapshotAgeMs != nil && *r.MaxSnapshotAgeMs <= 0 {
		return metaErrorf(ErrInvalidMetadata, "ref %q: max-snapshot-age-ms must be positive, got %d", name, *r.MaxSnapshotAgeMs)
	}
	if r.MaxRefAgeMs != nil && *r.MaxRefAgeMs <= 0 {
		return metaErrorf(ErrInvalidMetadata, "ref %q: max-ref-age-ms must be positive, got %d", name, *r.MaxRefAgeMs)
	}
	return nil
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
