package maintenance

import (
	"context"
	"fmt"
	"strconv"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// Summary keys cherry-picking writes (Java's SnapshotSummary names).
const (
	SummarySourceSnapshotID  = "source-snapshot-id"
	SummaryPublishedWAPID    = "published-wap-id"
	summaryWAPID             = "wap.id"
	summaryReplacePartitions = "replace-partitions"
)

// CherrypickSnapshot applies the changes of a snapshot that is not on main
// (typically a staged write-audit-publish snapshot) onto main's head as a
// new snapshot whose summary carries source-snapshot-id. Appends can always
// be picked; a dynamic overwrite (replace-partitions=true) only when its
// parent is an ancestor of main and nothing was added since. When the
// snapshot's parent is main's head, main is fast-forwarded to it instead.
func CherrypickSnapshot(ctx context.Context, tbl *table.Table, snapshotID int64) (CherrypickResult, error) {
	fail := func(err error) (CherrypickResult, error) {
		return CherrypickResult{}, &SnapshotError{Op: "cherry-pick", SnapshotID: snapshotID, Err: err}
	}
	m := tbl.Metadata()
	src, ok := m.SnapshotByID(snapshotID)
	if !ok {
		return fail(iceberg.ErrNoSuchSnapshot)
	}
	cur := m.CurrentSnapshot()
	if cur != nil {
		if isAncestor(m, cur.SnapshotID, snapshotID) {
			return fail(fmt.Errorf("%w: it is already an ancestor of main", ErrAlreadyCherrypicked))
		}
		idText := strconv.FormatInt(snapshotID, 10)
		wap := src.Summary[summaryWAPID]
		for s := range m.Ancestors(cur.SnapshotID) {
			if s.Summary[SummarySourceSnapshotID] == idText || (wap != "" && s.Summary[SummaryPublishedWAPID] == wap) {
				return fail(fmt.Errorf("%w: as snapshot %d", ErrAlreadyCherrypicked, s.SnapshotID))
			}
		}
	}
	if src.ParentSnapshotID != nil && cur != nil && *src.ParentSnapshotID == cur.SnapshotID {
		res, err := moveMain(ctx, tbl, "cherry-pick", func(m *iceberg.TableMetadata) (int64, error) {
			if c := m.CurrentSnapshot(); c == nil || c.SnapshotID != *src.ParentSnapshotID {
				return 0, fmt.Errorf("%w: main moved while fast-forwarding to snapshot %d", iceberg.ErrCommitFailed, snapshotID)
			}
			return snapshotID, nil
		})
		if err != nil {
			return CherrypickResult{}, err
		}
		return CherrypickResult{SourceSnapshotID: snapshotID, CurrentSnapshotID: res.CurrentSnapshotID}, nil
	}

	added, removed, err := changesOf(ctx, tbl, src)
	if err != nil {
		return CherrypickResult{}, err
	}
	var u *table.SnapshotUpdate
	switch {
	case src.Operation() == iceberg.OpAppend:
		u = tbl.NewAppend()
	case src.Operation() == iceberg.OpOverwrite && src.Summary[summaryReplacePartitions] == "true":
		if src.ParentSnapshotID == nil || cur == nil || !isAncestor(m, cur.SnapshotID, *src.ParentSnapshotID) {
			return fail(fmt.Errorf("%w: the dynamic overwrite's parent is not an ancestor of main", ErrCherrypickUnsupported))
		}
		// Anything committed since the overwrite's parent may have touched
		// its partitions: serializable validation refuses that.
		u = tbl.NewOverwrite().Validate(src.ParentSnapshotID, iceberg.IsolationSerializable, nil)
		u.SetSummary(summaryReplacePartitions, "true")
		for _, f := range removed {
			u.RemoveFile(f)
		}
	default:
		return fail(fmt.Errorf("%w: operation %q is not append or dynamic overwrite, and its parent is not main's head",
			ErrCherrypickUnsupported, src.Operation()))
	}
	for _, f := range added {
		u.AddDataFile(f)
	}
	u.SetSummary(SummarySourceSnapshotID, strconv.FormatInt(snapshotID, 10))
	if wap := src.Summary[summaryWAPID]; wap != "" {
		u.SetSummary(SummaryPublishedWAPID, wap)
	}
	committed, err := u.Commit(ctx)
	if err != nil {
		return CherrypickResult{}, err
	}
	return CherrypickResult{SourceSnapshotID: snapshotID, CurrentSnapshotID: committed.Metadata().CurrentSnapshotID()}, nil
}

// changesOf lists the data files a snapshot added and removed, from the
// manifests it wrote.
func changesOf(ctx context.Context, tbl *table.Table, s *iceberg.Snapshot) (added, removed []iceberg.DataFile, err error) {
	mfs, err := table.ManifestsOf(ctx, tbl.IO(), s)
	if err != nil {
		return nil, nil, err
	}
	for _, mf := range mfs {
		if mf.AddedSnapshotID != s.SnapshotID {
			continue
		}
		entries, err := table.EntriesOf(ctx, tbl.IO(), tbl.Metadata(), mf)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range entries {
			if e.SnapshotID == nil || *e.SnapshotID != s.SnapshotID {
				continue
			}
			if e.DataFile.Content != iceberg.ContentData {
				return nil, nil, &SnapshotError{Op: "cherry-pick", SnapshotID: s.SnapshotID,
					Err: fmt.Errorf("%w: it changes delete files", ErrCherrypickUnsupported)}
			}
			switch e.Status {
			case iceberg.StatusAdded:
				added = append(added, e.DataFile)
			case iceberg.StatusDeleted:
				removed = append(removed, e.DataFile)
			}
		}
	}
	return added, removed, nil
}
