package iceberg

// Requirement is a commit precondition checked against the table's current
// metadata (nil when the table does not exist). A failed requirement means
// the table changed under the commit; errors wrap ErrRequirementFailed.
type Requirement interface {
	Validate(base *TableMetadata) error
}

type (
	// AssertCreate: the table must not exist.
	AssertCreate struct{}
	// AssertTableUUID: the table must have this UUID.
	AssertTableUUID struct{ UUID string }
	// AssertRefSnapshotID: ref must point to SnapshotID, or not exist when
	// SnapshotID is nil.
	AssertRefSnapshotID struct {
		Ref        string
		SnapshotID *int64
	}
	AssertLastAssignedFieldID     struct{ LastAssignedFieldID int }
	AssertCurrentSchemaID         struct{ SchemaID int }
	AssertLastAssignedPartitionID struct{ LastAssignedPartitionID int }
	AssertDefaultSpecID           struct{ SpecID int }
	AssertDefaultSortOrderID      struct{ SortOrderID int }
)

func (AssertCreate) Validate(base *TableMetadata) error {
	if base != nil {
		return metaErrorf(ErrRequirementFailed, "table already exists")
	}
	return nil
}

func requireTable(base *TableMetadata) error {
	if base == nil {
		return metaErrorf(ErrRequirementFailed, "table does not exist")
	}
	return nil
}

func (r AssertTableUUID) Validate(base *TableMetadata) error {
	if err := requireTable(base); err != nil {
		return err
	}
	if base.uuid != r.UUID {
		return metaErrorf(ErrRequirementFailed, "table UUID is %s, expected %s", base.uuid, r.UUID)
	}
	return nil
}

func (r AssertRefSnapshotID) Validate(base *TableMetadata) error {
	if err := requireTable(base); err != nil {
		return err
	}
	ref, ok := base.refs[r.Ref]
	switch {
	case r.SnapshotID == nil && ok:
		return metaErrorf(ErrRequirementFailed, "ref %q was created concurrently (now %d)", r.Ref, ref.SnapshotID)
	case r.SnapshotID != nil && !ok:
		return metaErrorf(ErrRequirementFailed, "ref %q was removed, expected snapshot %d", r.Ref, *r.SnapshotID)
	case r.SnapshotID != nil && ref.SnapshotID != *r.SnapshotID:
		return metaErrorf(ErrRequirementFailed, "ref %q points to snapshot %d, expected %d", r.Ref, ref.SnapshotID, *r.SnapshotID)
	}
	return nil
}

func (r AssertLastAssignedFieldID) Validate(base *TableMetadata) error {
	if err := requireTable(base); err != nil {
		return err
	}
	if base.lastColumnID != r.LastAssignedFieldID {
		return metaErrorf(ErrRequirementFailed, "last assigned field id is %d, expected %d", base.lastColumnID, r.LastAssignedFieldID)
	}
	return nil
}

func (r AssertCurrentSchemaID) Validate(base *TableMetadata) error {
	if err := requireTable(base); err != nil {
		return err
	}
	if base.currentSchemaID != r.SchemaID {
		return metaErrorf(ErrRequirementFailed, "current schema id is %d, expected %d", base.currentSchemaID, r.SchemaID)
	}
	return nil
}

func (r AssertLastAssignedPartitionID) Validate(base *TableMetadata) error {
	if err := requireTable(base); err != nil {
		return err
	}
	if base.lastPartitionID != r.LastAssignedPartitionID {
		return metaErrorf(ErrRequirementFailed, "last assigned partition id is %d, expected %d", base.lastPartitionID, r.LastAssignedPartitionID)
	}
	return nil
}

func (r AssertDefaultSpecID) Validate(base *TableMetadata) error {
	if err := requireTable(base); err != nil {
		return err
	}
	if base.defaultSpecID != r.SpecID {
		return metaErrorf(ErrRequirementFailed, "default spec id is %d, expected %d", base.defaultSpecID, r.SpecID)
	}
	return nil
}

func (r AssertDefaultSortOrderID) Validate(base *TableMetadata) error {
	if err := requireTable(base); err != nil {
		return err
	}
	if base.defaultSortOrderID != r.SortOrderID {
		return metaErrorf(ErrRequirementFailed, "default sort order id is %d, expected %d", base.defaultSortOrderID, r.SortOrderID)
	}
	return nil
}

// RequirementsFor derives the preconditions a commit of updates against
// base needs, as Java's UpdateRequirements does: base nil means create.
func RequirementsFor(base *TableMetadata, updates []Update) []Requirement {
	if base == nil {
		return []Requirement{AssertCreate{}}
	}
	reqs := []Requirement{AssertTableUUID{UUID: base.uuid}}
	seen := map[string]bool{}
	add := func(key string, r Requirement) {
		if !seen[key] {
			seen[key] = true
			reqs = append(reqs, r)
		}
	}
	for _, u := range updates {
		switch u := u.(type) {
		case AddSchemaUpdate:
			add("field-id", AssertLastAssignedFieldID{LastAssignedFieldID: base.lastColumnID})
		case SetCurrentSchemaUpdate, RemoveSchemasUpdate:
			add("schema", AssertCurrentSchemaID{SchemaID: base.currentSchemaID})
		case AddPartitionSpecUpdate:
			add("partition-id", AssertLastAssignedPartitionID{LastAssignedPartitionID: base.lastPartitionID})
		case SetDefaultSpecUpdate, RemovePartitionSpecsUpdate:
			add("spec", AssertDefaultSpecID{SpecID: base.defaultSpecID})
		case SetDefaultSortOrderUpdate:
			add("order", AssertDefaultSortOrderID{SortOrderID: base.defaultSortOrderID})
		case SetSnapshotRefUpdate:
			r := AssertRefSnapshotID{Ref: u.Name}
			if ref, ok := base.refs[u.Name]; ok {
				id := ref.SnapshotID
				r.SnapshotID = &id
			}
			add("ref:"+u.Name, r)
		}
	}
	return reqs
}

// ValidateRequirements checks each requirement against base.
func ValidateRequirements(base *TableMetadata, reqs []Requirement) error {
	for _, r := range reqs {
		if err := r.Validate(base); err != nil {
			return err
		}
	}
	return nil
}
