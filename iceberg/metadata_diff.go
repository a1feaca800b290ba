package iceberg

import (
	"maps"
	"slices"
)

// DiffMetadata returns the updates that turn base into next, for a catalog
// that takes changes rather than a new metadata file (the REST catalog's
// commit). next must descend from base (same table, written by the
// builder). Metadata and snapshot logs are the catalog's to maintain and
// are not diffed.
func DiffMetadata(base, next *TableMetadata) []Update {
	var out []Update
	if next.formatVersion > base.formatVersion {
		out = append(out, UpgradeFormatVersionUpdate{FormatVersion: next.formatVersion})
	}
	lastSchema := -1
	for _, s := range next.schemas {
		if _, ok := base.SchemaByID(s.ID); !ok {
			out = append(out, AddSchemaUpdate{Schema: s, LastColumnID: next.lastColumnID})
			lastSchema = s.ID
		}
	}
	if next.currentSchemaID != base.currentSchemaID {
		out = append(out, SetCurrentSchemaUpdate{SchemaID: lastAddedOr(next.currentSchemaID, lastSchema)})
	}
	lastSpec := -1
	for _, s := range next.specs {
		if _, ok := base.SpecByID(s.ID); !ok {
			out = append(out, AddPartitionSpecUpdate{Spec: s})
			lastSpec = s.ID
		}
	}
	if next.defaultSpecID != base.defaultSpecID {
		out = append(out, SetDefaultSpecUpdate{SpecID: lastAddedOr(next.defaultSpecID, lastSpec)})
	}
	lastOrder := -1
	for _, o := range next.sortOrders {
		if _, ok := base.SortOrderByID(o.OrderID); !ok {
			out = append(out, AddSortOrderUpdate{SortOrder: o})
			lastOrder = o.OrderID
		}
	}
	if next.defaultSortOrderID != base.defaultSortOrderID {
		out = append(out, SetDefaultSortOrderUpdate{SortOrderID: lastAddedOr(next.defaultSortOrderID, lastOrder)})
	}
	if next.location != base.location {
		out = append(out, SetLocationUpdate{Location: next.location})
	}
	set := map[string]string{}
	for k, v := range next.properties {
		if old, ok := base.properties[k]; !ok || old != v {
			set[k] = v
		}
	}
	if len(set) > 0 {
		out = append(out, SetPropertiesUpdate{Updates: set})
	}
	var removed []string
	for k := range base.properties {
		if _, ok := next.properties[k]; !ok {
			removed = append(removed, k)
		}
	}
	if len(removed) > 0 {
		slices.Sort(removed)
		out = append(out, RemovePropertiesUpdate{Removals: removed})
	}
	for _, s := range next.snapshots {
		if _, ok := base.SnapshotByID(s.SnapshotID); !ok {
			out = append(out, AddSnapshotUpdate{Snapshot: s})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(base.refs)) {
		if _, ok := next.refs[name]; !ok {
			out = append(out, RemoveSnapshotRefUpdate{Name: name})
		}
	}
	var gone []int64
	for _, s := range base.snapshots {
		if _, ok := next.SnapshotByID(s.SnapshotID); !ok {
			gone = append(gone, s.SnapshotID)
		}
	}
	if len(gone) > 0 {
		out = append(out, RemoveSnapshotsUpdate{SnapshotIDs: gone})
	}
	for _, name := range slices.Sorted(maps.Keys(next.refs)) {
		if old, ok := base.refs[name]; !ok || !old.equal(next.refs[name]) {
			out = append(out, SetSnapshotRefUpdate{Name: name, Ref: next.refs[name]})
		}
	}
	out = append(out, diffStatistics(base, next)...)
	var schemasGone, specsGone []int
	for _, s := range base.schemas {
		if _, ok := next.SchemaByID(s.ID); !ok {
			schemasGone = append(schemasGone, s.ID)
		}
	}
	for _, s := range base.specs {
		if _, ok := next.SpecByID(s.ID); !ok {
			specsGone = append(specsGone, s.ID)
		}
	}
	if len(specsGone) > 0 {
		out = append(out, RemovePartitionSpecsUpdate{SpecIDs: specsGone})
	}
	if len(schemasGone) > 0 {
		out = append(out, RemoveSchemasUpdate{SchemaIDs: schemasGone})
	}
	return out
}

// lastAddedOr names id as LastAdded when it is the one added last in this
// change, so the catalog resolves it to the id it assigns.
func lastAddedOr(id, lastAdded int) int {
	if id == lastAdded {
		return LastAdded
	}
	return id
}

func diffStatistics(base, next *TableMetadata) []Update {
	var out []Update
	baseStats := map[int64]StatisticsFile{}
	for _, s := range base.statistics {
		baseStats[s.SnapshotID] = s
	}
	nextStats := map[int64]bool{}
	for _, s := range next.statistics {
		nextStats[s.SnapshotID] = true
		if old, ok := baseStats[s.SnapshotID]; !ok || old.StatisticsPath != s.StatisticsPath {
			out = append(out, SetStatisticsUpdate{Statistics: s})
		}
	}
	for _, s := range base.statistics {
		if _, kept := next.SnapshotByID(s.SnapshotID); kept && !nextStats[s.SnapshotID] {
			out = append(out, RemoveStatisticsUpdate{SnapshotID: s.SnapshotID})
		}
	}
	basePart := map[int64]string{}
	for _, s := range base.partitionStats {
		basePart[s.SnapshotID] = s.StatisticsPath
	}
	nextPart := map[int64]bool{}
	for _, s := range next.partitionStats {
		nextPart[s.SnapshotID] = true
		if p, ok := basePart[s.SnapshotID]; !ok || p != s.StatisticsPath {
			out = append(out, SetPartitionStatisticsUpdate{Statistics: s})
		}
	}
	for _, s := range base.partitionStats {
		if _, kept := next.SnapshotByID(s.SnapshotID); kept && !nextPart[s.SnapshotID] {
			out = append(out, RemovePartitionStatisticsUpdate{SnapshotID: s.SnapshotID})
		}
	}
	return out
}
