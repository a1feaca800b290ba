package table

import (
	"github.com/icesql/icesql/iceberg"
)

// RetentionPolicy is what snapshot expiry keeps: the table's
// history.expire.* properties (PolicyOf), which expire_snapshots'
// arguments may override.
type RetentionPolicy struct {
	NowMs           int64
	ExpireOlderMs   int64 // snapshots at or after this are kept
	MinSnapshots    int
	DefaultRefAgeMs int64
	ExplicitExpire  map[int64]bool
}

// PolicyOf is the table's retention policy at nowMs, from its
// history.expire.* properties.
func PolicyOf(m *iceberg.TableMetadata, nowMs int64) RetentionPolicy {
	return RetentionPolicy{
		NowMs:           nowMs,
		ExpireOlderMs:   nowMs - m.PropertyInt(iceberg.PropMaxSnapshotAgeMs, iceberg.DefaultMaxSnapshotAgeMs),
		MinSnapshots:    int(m.PropertyInt(iceberg.PropMinSnapshotsToKeep, iceberg.DefaultMinSnapshotsToKeep)),
		DefaultRefAgeMs: m.PropertyInt(iceberg.PropMaxRefAgeMs, iceberg.DefaultMaxRefAgeMs),
	}
}

// RetentionPlan is what expiry keeps and drops.
type RetentionPlan struct {
	DroppedRefs  []string       // non-main refs older than their max-ref-age
	RetainedRefs map[int64]bool // heads of the refs that stay
	Expire       []int64        // snapshot ids to remove, in metadata order
	Keep         map[int64]bool // snapshot ids that stay
	RefsByHead   map[int64][]string
}

// PlanRetention applies the spec's retention policy (Java's RemoveSnapshots):
// drop non-main refs older than their max-ref-age, keep every remaining
// ref's head, keep each branch's ancestors until one is both older than the
// branch's max snapshot age and beyond its min-snapshots-to-keep, keep
// snapshots on no branch that are newer than the default cut-off, and
// expire the rest plus the explicitly named snapshots.
func PlanRetention(m *iceberg.TableMetadata, p RetentionPolicy) RetentionPlan {
	plan := RetentionPlan{RetainedRefs: map[int64]bool{}, Keep: map[int64]bool{}, RefsByHead: map[int64][]string{}}
	retained := map[string]iceberg.SnapshotRef{}
	for name, ref := range m.Refs() {
		if name != iceberg.MainBranch {
			s, ok := m.SnapshotByID(ref.SnapshotID)
			maxAge := p.DefaultRefAgeMs
			if ref.MaxRefAgeMs != nil {
				maxAge = *ref.MaxRefAgeMs
			}
			if !ok || p.NowMs-s.TimestampMs > maxAge {
				plan.DroppedRefs = append(plan.DroppedRefs, name)
				continue
			}
		}
		retained[name] = ref
		plan.RetainedRefs[ref.SnapshotID] = true
		plan.RefsByHead[ref.SnapshotID] = append(plan.RefsByHead[ref.SnapshotID], name)
		plan.Keep[ref.SnapshotID] = true
	}
	onBranch := map[int64]bool{}
	for _, ref := range retained {
		if ref.Type != iceberg.BranchRef {
			onBranch[ref.SnapshotID] = true
			continue
		}
		olderThan := p.ExpireOlderMs
		if ref.MaxSnapshotAgeMs != nil {
			olderThan = p.NowMs - *ref.MaxSnapshotAgeMs
		}
		minKeep := p.MinSnapshots
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
				plan.Keep[s.SnapshotID] = true
				kept++
			} else {
				stopped = true
			}
		}
	}
	for _, s := range m.Snapshots() {
		if !onBranch[s.SnapshotID] && s.TimestampMs >= p.ExpireOlderMs {
			plan.Keep[s.SnapshotID] = true
		}
	}
	for _, s := range m.Snapshots() {
		id := s.SnapshotID
		if p.ExplicitExpire[id] && !plan.RetainedRefs[id] {
			delete(plan.Keep, id)
		}
		if !plan.Keep[id] {
			plan.Expire = append(plan.Expire, id)
		}
	}
	return plan
}
