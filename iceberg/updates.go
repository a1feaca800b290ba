package iceberg

// Update is one recorded metadata change. Updates are values so a commit
// can re-apply them onto a newer base after a conflict (ApplyUpdates).
// Action returns the REST-catalog action name ("add-schema", ...).
type Update interface {
	Action() string
	apply(b *MetadataBuilder) error
}

// LastAdded stands for "the schema/spec/sort order added earlier in this
// change" in SetCurrentSchema, SetDefaultSpec and SetDefaultSortOrder, so
// re-applied updates follow the id the add received on the new base.
const LastAdded = -1

type (
	AssignUUIDUpdate           struct{ UUID string }
	UpgradeFormatVersionUpdate struct{ FormatVersion int }
	AddSchemaUpdate            struct {
		Schema       *Schema
		LastColumnID int
	}
	SetCurrentSchemaUpdate    struct{ SchemaID int }
	AddPartitionSpecUpdate    struct{ Spec *PartitionSpec }
	SetDefaultSpecUpdate      struct{ SpecID int }
	AddSortOrderUpdate        struct{ SortOrder *SortOrder }
	SetDefaultSortOrderUpdate struct{ SortOrderID int }
	AddSnapshotUpdate         struct{ Snapshot *Snapshot }
	SetSnapshotRefUpdate      struct {
		Name string
		Ref  SnapshotRef
	}
	RemoveSnapshotsUpdate           struct{ SnapshotIDs []int64 }
	RemoveSnapshotRefUpdate         struct{ Name string }
	SetLocationUpdate               struct{ Location string }
	SetPropertiesUpdate             struct{ Updates map[string]string }
	RemovePropertiesUpdate          struct{ Removals []string }
	SetStatisticsUpdate             struct{ Statistics StatisticsFile }
	RemoveStatisticsUpdate          struct{ SnapshotID int64 }
	SetPartitionStatisticsUpdate    struct{ Statistics PartitionStatisticsFile }
	RemovePartitionStatisticsUpdate struct{ SnapshotID int64 }
	RemoveSchemasUpdate             struct{ SchemaIDs []int }
	RemovePartitionSpecsUpdate      struct{ SpecIDs []int }
)

func (AssignUUIDUpdate) Action() string                { return "assign-uuid" }
func (UpgradeFormatVersionUpdate) Action() string      { return "upgrade-format-version" }
func (AddSchemaUpdate) Action() string                 { return "add-schema" }
func (SetCurrentSchemaUpdate) Action() string          { return "set-current-schema" }
func (AddPartitionSpecUpdate) Action() string          { return "add-spec" }
func (SetDefaultSpecUpdate) Action() string            { return "set-default-spec" }
func (AddSortOrderUpdate) Action() string              { return "add-sort-order" }
func (SetDefaultSortOrderUpdate) Action() string       { return "set-default-sort-order" }
func (AddSnapshotUpdate) Action() string               { return "add-snapshot" }
func (SetSnapshotRefUpdate) Action() string            { return "set-snapshot-ref" }
func (RemoveSnapshotsUpdate) Action() string           { return "remove-snapshots" }
func (RemoveSnapshotRefUpdate) Action() string         { return "remove-snapshot-ref" }
func (SetLocationUpdate) Action() string               { return "set-location" }
func (SetPropertiesUpdate) Action() string             { return "set-properties" }
func (RemovePropertiesUpdate) Action() string          { return "remove-properties" }
func (SetStatisticsUpdate) Action() string             { return "set-statistics" }
func (RemoveStatisticsUpdate) Action() string          { return "remove-statistics" }
func (SetPartitionStatisticsUpdate) Action() string    { return "set-partition-statistics" }
func (RemovePartitionStatisticsUpdate) Action() string { return "remove-partition-statistics" }
func (RemoveSchemasUpdate) Action() string             { return "remove-schemas" }
func (RemovePartitionSpecsUpdate) Action() string      { return "remove-partition-specs" }

func (u AssignUUIDUpdate) apply(b *MetadataBuilder) error { return b.AssignUUID(u.UUID) }
func (u UpgradeFormatVersionUpdate) apply(b *MetadataBuilder) error {
	return b.UpgradeFormatVersion(u.FormatVersion)
}
func (u AddSchemaUpdate) apply(b *MetadataBuilder) error {
	_, err := b.AddSchema(u.Schema)
	return err
}
func (u SetCurrentSchemaUpdate) apply(b *MetadataBuilder) error {
	return b.SetCurrentSchema(u.SchemaID)
}
func (u AddPartitionSpecUpdate) apply(b *MetadataBuilder) error {
	_, err := b.AddPartitionSpec(u.Spec)
	return err
}
func (u SetDefaultSpecUpdate) apply(b *MetadataBuilder) error { return b.SetDefaultSpec(u.SpecID) }
func (u AddSortOrderUpdate) apply(b *MetadataBuilder) error {
	_, err := b.AddSortOrder(u.SortOrder)
	return err
}
func (u SetDefaultSortOrderUpdate) apply(b *MetadataBuilder) error {
	return b.SetDefaultSortOrder(u.SortOrderID)
}
func (u AddSnapshotUpdate) apply(b *MetadataBuilder) error    { return b.AddSnapshot(u.Snapshot) }
func (u SetSnapshotRefUpdate) apply(b *MetadataBuilder) error { return b.SetSnapshotRef(u.Name, u.Ref) }
func (u RemoveSnapshotsUpdate) apply(b *MetadataBuilder) error {
	return b.RemoveSnapshots(u.SnapshotIDs...)
}
func (u RemoveSnapshotRefUpdate) apply(b *MetadataBuilder) error { return b.RemoveSnapshotRef(u.Name) }
func (u SetLocationUpdate) apply(b *MetadataBuilder) error       { return b.SetLocation(u.Location) }
func (u SetPropertiesUpdate) apply(b *MetadataBuilder) error     { return b.SetProperties(u.Updates) }
func (u RemovePropertiesUpdate) apply(b *MetadataBuilder) error {
	return b.RemoveProperties(u.Removals...)
}
func (u SetStatisticsUpdate) apply(b *MetadataBuilder) error { return b.SetStatistics(u.Statistics) }
func (u RemoveStatisticsUpdate) apply(b *MetadataBuilder) error {
	return b.RemoveStatistics(u.SnapshotID)
}
func (u SetPartitionStatisticsUpdate) apply(b *MetadataBuilder) error {
	return b.SetPartitionStatistics(u.Statistics)
}
func (u RemovePartitionStatisticsUpdate) apply(b *MetadataBuilder) error {
	return b.RemovePartitionStatistics(u.SnapshotID)
}
func (u RemoveSchemasUpdate) apply(b *MetadataBuilder) error { return b.RemoveSchemas(u.SchemaIDs...) }
func (u RemovePartitionSpecsUpdate) apply(b *MetadataBuilder) error {
	return b.RemovePartitionSpecs(u.SpecIDs...)
}

// ApplyUpdates re-applies recorded updates onto base (nil for a table
// being created) and builds the result. previousMetadataFile is base's
// metadata file location, recorded in metadata-log ("" to record nothing).
func ApplyUpdates(base *TableMetadata, previousMetadataFile string, updates []Update) (*TableMetadata, error) {
	b := NewMetadataBuilder(base)
	if previousMetadataFile != "" {
		b.SetPreviousMetadataFile(previousMetadataFile)
	}
	for _, u := range updates {
		if err := u.apply(b); err != nil {
			return nil, err
		}
	}
	return b.Build()
}
