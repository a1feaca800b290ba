package table

import (
	"context"

	"github.com/icesql/icesql/iceberg"
)

// CreateOptions are the optional parts of a new table.
type CreateOptions struct {
	Spec       *iceberg.PartitionSpec // nil: unpartitioned
	SortOrder  *iceberg.SortOrder     // nil: unsorted
	Properties map[string]string
}

// Create writes the first metadata.json of a new table at location and
// registers it in the catalog. Field ids are assigned afresh (1..n) and the
// spec's source ids follow them. If the catalog refuses (the table exists),
// the metadata file is removed again. A catalog that writes metadata
// itself (MetadataCommitter) creates the table from meta instead.
func Create(ctx context.Context, env *Env, ident Identifier, schema *iceberg.Schema, location string, opts CreateOptions) (*Table, error) {
	spec, order := opts.specAndOrder()
	meta, err := iceberg.NewTableMetadata(schema, spec, order, location, opts.Properties)
	if err != nil {
		return nil, err
	}
	return createFrom(ctx, env, ident, meta)
}

// specAndOrder are the options' spec and sort order, unpartitioned and
// unsorted when unset.
func (o CreateOptions) specAndOrder() (*iceberg.PartitionSpec, *iceberg.SortOrder) {
	spec, order := o.Spec, o.SortOrder
	if spec == nil {
		spec = iceberg.UnpartitionedSpec
	}
	if order == nil {
		order = iceberg.UnsortedOrder
	}
	return spec, order
}

// createFrom creates a table whose first version is meta.
func createFrom(ctx context.Context, env *Env, ident Identifier, meta *iceberg.TableMetadata) (*Table, error) {
	if m, ok := env.Catalog.(MetadataCommitter); ok {
		c, err := m.CreateFromMetadata(ctx, ident, meta)
		if err != nil {
			return nil, err
		}
		return &Table{env: env, ident: ident, meta: c.Metadata, location: c.Location}, nil
	}
	loc, err := writeMetadataFile(ctx, env, meta, "")
	if err != nil {
		return nil, err
	}
	if err := env.syncFiles(ctx, []string{loc}); err != nil {
		env.IO.Remove(context.WithoutCancel(ctx), loc)
		return nil, err
	}
	if err := env.Catalog.Create(ctx, ident, loc); err != nil {
		env.IO.Remove(context.WithoutCancel(ctx), loc)
		return nil, err
	}
	return &Table{env: env, ident: ident, meta: meta, location: loc}, nil
}
