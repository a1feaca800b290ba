package maintenance

import (
	"github.com/icesql/icesql/iceberg"
)

// retentionPolicy holds the table-level defaults of snapshot retention
// after the procedure's arguments override them.
type retentionPolicy struct {
	nowMs          int64
	expireOlderMs  int64 // snapshots at or after this are kept
	minSnapshots   int
	defaultRefAge  int64
	explicitExpire map[int64]bool
}

// retentionPlan is what expiry keeps and drops.
type retentionPlan struct {
	droppedRefs []string       // non-main refs older than their max-ref-age
	retainedRef map[int64]bool // heads of the refs that stay
	expire      []int64        // snapshot ids to remove, in metadata order
	keep        map[int64]bool // snapshot ids that stay
	refsByHead  map[int64][]string
}

// planRetention applies the spec's retention policy (Java's RemoveSnapshots):
// drop non-main refs older than their max-ref-age, keep every remaining
// ref's head, keep each branch's ancestors until one is both older than the
// branch's max snapshot age and beyond its min-snapshots-to-keep, keep
// snapshots on no branch that are newer than the default cut-off, and
// expire the rest plus the explicitly named snapshots.
func planRetention(m *iceberg.TableMetadata, p retentionPolicy) retentionPlan {
	plan := retentionPlan{retainedRef: map[int64]bool{}, keep: map[int64]bool{}, refsByHead: map[int64][]string{}}
	retained := map[string]iceberg.SnapshotRef{}
	for name, ref := range m.Refs() {
		if name != iceberg.MainBranch {
			s, ok := m.SnapshotByID(ref.SnapshotID)
			maxAge := p.defaultRefAge
			if ref.MaxRefAgeMs != nil {
				maxAge = *ref.MaxRefAgeMs
			}
			if !ok || p.nowMs-s.TimestampMs > maxAge {
				plan.droppedRefs = append(plan.droppedRefs, name)
				continue
			}
		}
		retained[name] = ref
		plan.retainedRef[ref.SnapshotID] = true
		plan.refsByHead[ref.SnapshotID] = append(plan.refsByHead[ref.SnapshotID], name)
		plan.keep[ref.SnapshotID] = true
	}
	onBranch := map[int64]bool{}
	for _, ref := range retained {
		if ref.Type != iceberg.BranchRef {
			onBranch[ref.SnapshotID] = true
			continue
		}
		olderThan := p.expireOlderMs
		if ref.MaxSnapshotAgeMs != nil {
			olderThan = p.nowMs - *ref.MaxSnapshotAgeMs
		}
		minKeep := p.minSnapshots
		if ref.MinSnapshotsToKeep != nil {
			minKeep = *ref.MinSnapshotsToKeep
		}
		kept := 0
		stopped := false
		for s := range m.Ancestors(ref.SnapshotID) {
			onBranch[s.SnapshotID] = true
			if stopped {
				continue
			}
			if kept < minKeep || s.TimestampMs >= olderThan {
				plan.keep[s.SnapshotID] = true
				kept++
			} else {
				stopped = true
			}
		}
	}
	for _, s := range m.Snapshots() {
		if !onBranch[s.SnapshotID] && s.TimestampMs >= p.expireOlderMs {
			plan.keep[s.SnapshotID] = true
		}
	}
	for _, s := range m.Snapshots() {
		id := s.SnapshotID
		if p.explicitExpire[id] && !plan.retainedRef[id] {
			delete(plan.keep, id)
		}
		if !plan.keep[id] {
			plan.expire = append(plan.expire, id)
		}
	}
	return plan
}
