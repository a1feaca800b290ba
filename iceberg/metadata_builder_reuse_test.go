package iceberg

import "testing"

// Evolving back to an earlier shape (rename a column and rename it back,
// add a partition field and drop it) reuses the earlier schema or spec id;
// "set current to last added" must then pick that id, and the recorded
// update must name it concretely since nothing was added.
func TestBuilderLastAddedReusesEqual(t *testing.T) {
	base := newTestTable(t, nil)
	origSchema := base.CurrentSchema()
	origSpec := base.CurrentSpec()

	renamed, _, err := NewSchemaUpdate(origSchema, base.LastColumnID()).RenameColumn("ts", "event_ts").Apply()
	if err != nil {
		t.Fatal(err)
	}
	unpartitioned := &PartitionSpec{}
	step1, err := ApplyUpdates(base, "m1", []Update{
		AddSchemaUpdate{Schema: renamed, LastColumnID: base.LastColumnID()}, SetCurrentSchemaUpdate{SchemaID: LastAdded},
		AddPartitionSpecUpdate{Spec: unpartitioned}, SetDefaultSpecUpdate{SpecID: LastAdded},
	})
	if err != nil {
		t.Fatal(err)
	}
	if step1.CurrentSchemaID() == origSchema.ID || step1.DefaultSpecID() == origSpec.ID {
		t.Fatalf("step 1 did not evolve: schema %d spec %d", step1.CurrentSchemaID(), step1.DefaultSpecID())
	}

	tests := []struct {
		name    string
		updates []Update
		check   func(*TableMetadata) bool
	}{
		{"schema back", []Update{AddSchemaUpdate{Schema: origSchema, LastColumnID: step1.LastColumnID()}, SetCurrentSchemaUpdate{SchemaID: LastAdded}},
			func(m *TableMetadata) bool { return m.CurrentSchemaID() == origSchema.ID && len(m.Schemas()) == 2 }},
		{"spec back", []Update{AddPartitionSpecUpdate{Spec: origSpec}, SetDefaultSpecUpdate{SpecID: LastAdded}},
			func(m *TableMetadata) bool { return m.DefaultSpecID() == origSpec.ID && len(m.Specs()) == 2 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewMetadataBuilder(step1)
			for _, u := range tc.updates {
				if err := u.apply(b); err != nil {
					t.Fatal(err)
				}
			}
			for _, u := range b.Updates() {
				switch x := u.(type) {
				case SetCurrentSchemaUpdate:
					if x.SchemaID == LastAdded {
						t.Fatalf("recorded LastAdded without an added schema: %+v", b.Updates())
					}
				case SetDefaultSpecUpdate:
					if x.SpecID == LastAdded {
						t.Fatalf("recorded LastAdded without an added spec: %+v", b.Updates())
					}
				}
			}
			m, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(m) {
				t.Fatalf("schema %d of %d, spec %d of %d", m.CurrentSchemaID(), len(m.Schemas()), m.DefaultSpecID(), len(m.Specs()))
			}
			// The recorded updates replay on the same base to the same result.
			again, err := ApplyUpdates(step1, "m2", b.Updates())
			if err != nil || !tc.check(again) {
				t.Fatalf("replay: %v", err)
			}
		})
	}
}
