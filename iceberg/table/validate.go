package table

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg"
)

// validate checks the snapshots committed between the operation's
// starting snapshot and the new parent for conflicts (Java's
// MergingSnapshotProducer validations, chosen by isolation level).
func (u *SnapshotUpdate) validate(ctx context.Context, base *Table, parent *iceberg.Snapshot) error {
	v := u.val
	meta := base.meta
	verr := func(reason string, files ...string) error {
		return &iceberg.ValidationError{
			Table: base.ident.String(), IsolationLevel: v.isolation, Filter: v.conflictFilter.String(),
			Reason: reason, ConflictingFiles: files, StartingSnapshotID: derefOr(v.fromSnapshot, -1),
		}
	}
	// The snapshots since the start, newest first.
	var since []*iceberg.Snapshot
	found := v.fromSnapshot == nil
	if parent != nil {
		for s := range meta.Ancestors(parent.SnapshotID) {
			if v.fromSnapshot != nil && s.SnapshotID == *v.fromSnapshot {
				found = true
				break
			}
			since = append(since, s)
		}
	}
	if !found {
		return verr(fmt.Sprintf("cannot determine history between starting snapshot %d and the current head", *v.fromSnapshot))
	}
	var filter *fileFilter
	if len(since) > 0 {
		var err error
		if filter, err = newFileFilter(meta, v.conflictFilter); err != nil {
			return err
		}
	}
	removing := map[string]bool{}
	for _, f := range u.removed {
		removing[f.FilePath] = true
	}
	for _, p := range v.referenced {
		removing[p] = true
	}
	for _, s := range since {
		op := s.Operation()
		mfs, err := ManifestsOf(ctx, base.env.IO, s)
		if err != nil {
			return err
		}
		for _, mf := range mfs {
			if mf.AddedSnapshotID != s.SnapshotID {
				continue // carried over from an earlier snapshot
			}
			entries, err := EntriesOf(ctx, base.env.IO, meta, mf)
			if err != nil {
				return err
			}
			for _, e := range entries {
				if e.SnapshotID == nil || *e.SnapshotID != s.SnapshotID {
					continue
				}
				df := e.DataFile
				switch {
				case e.Status == iceberg.StatusAdded && df.Content == iceberg.ContentData && v.noNewData &&
					(op == iceberg.OpAppend || op == iceberg.OpOverwrite):
					if _, some, err := filter.matches(df); err != nil {
						return err
					} else if some {
						return verr(fmt.Sprintf("found conflicting data files added by snapshot %d (%s)", s.SnapshotID, op), df.FilePath)
					}
				case e.Status == iceberg.StatusAdded && df.Content != iceberg.ContentData && v.noNewDeletes &&
					(op == iceberg.OpOverwrite || op == iceberg.OpDelete):
					if _, some, err := filter.matches(df); err != nil {
						return err
					} else if some || (df.ReferencedDataFile != nil && removing[*df.ReferencedDataFile]) {
						return verr(fmt.Sprintf("found new conflicting delete files added by snapshot %d (%s)", s.SnapshotID, op), df.FilePath)
					}
				case e.Status == iceberg.StatusDeleted && df.Content == iceberg.ContentData:
					if removing[df.FilePath] {
						return verr(fmt.Sprintf("data file was removed by snapshot %d (%s)", s.SnapshotID, op), df.FilePath)
					}
					if v.noNewDeletes && op != iceberg.OpReplace {
						if _, some, err := filter.matches(df); err != nil {
							return err
						} else if some {
							return verr(fmt.Sprintf("found conflicting deleted data files in snapshot %d (%s)", s.SnapshotID, op), df.FilePath)
						}
					}
				}
			}
		}
	}
	return nil
}

func derefOr(p *int64, def int64) int64 {
	if p == nil {
		return def
	}
	return *p
}
