package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/parser"
)

// loadTable loads the version of the table ref names that this session
// sees: the current one, or inside a transaction its pinned view plus the
// transaction's own staged writes.
func (s *Session) loadTable(ctx context.Context, ref *parser.TableRef) (*table.Table, error) {
	id, err := s.ident(ref)
	if err != nil {
		return nil, err
	}
	var t *table.Table
	if s.tx != nil {
		t, err = s.tx.txn.Table(ctx, id)
	} else {
		var loc string
		if loc, err = s.pointer(ctx, id); err == nil {
			t, err = s.engine.tableAt(ctx, id, loc)
		}
	}
	if err != nil && errors.Is(err, iceberg.ErrNoSuchTable) {
		if verr := s.viewInstead(ctx, id, err); verr != err {
			return nil, verr
		}
		// A write's target: named, with a near miss, as a read's is.
		return nil, s.unknownTable(ctx, ref, err)
	}
	return t, err
}

// viewInstead turns a table-not-found or table-exists error about a name
// that is a view into one that says so (still matching err), since a
// statement that needs a table cannot use a view.
func (s *Session) viewInstead(ctx context.Context, id table.Identifier, err error) error {
	if isView, verr := s.engine.catalog.ViewExists(ctx, id); verr != nil || !isView {
		return err
	}
	return fmt.Errorf("%w: %s is a view, not a table: views are read with SELECT (%w)", ErrInvalidStatement, id, err)
}

func (s *Session) createTable(ctx context.Context, st *parser.CreateTableStmt) (Result, error) {
	if st.Using != "" && !strings.EqualFold(st.Using, "iceberg") {
		return Result{}, notSupported("USING %s: only Iceberg tables", st.Using)
	}
	if st.OrReplace {
		return Result{}, notSupported("CREATE OR REPLACE TABLE")
	}
	if st.Table.MetadataTable != "" || st.Table.Branch != "" || st.Table.Tag != "" {
		return Result{}, invalidf("cannot create %s", st.Table)
	}
	id, err := s.ident(st.Table)
	if err != nil {
		return Result{}, err
	}
	if err := checkNewIdent(id); err != nil {
		return Result{}, err
	}
	if st.IfNotExists {
		exists, err := s.engine.catalog.TableExists(ctx, id)
		if err != nil {
			return Result{}, err
		}
		if exists {
			return Result{}, nil
		}
	}
	var fields []iceberg.NestedField
	var query *boundQuery
	if st.AsSelect != nil {
		if len(st.Columns) > 0 {
			return Result{}, invalidf("CREATE TABLE AS SELECT takes its columns from the query")
		}
		query, err = s.bindQuery(ctx, st.AsSelect.Node, st.Refs)
		if err != nil {
			return Result{}, err
		}
		defer query.close()
		if fields, err = fieldsFromArrow(query.schema); err != nil {
			return Result{}, err
		}
	} else {
		for _, c := range st.Columns {
			fields = append(fields, iceberg.NestedField{Name: c.Name, Type: c.Type, Required: c.NotNull, Doc: c.Comment})
		}
	}
	if len(st.Unique) > 0 {
		return Result{}, noIcebergFeature("unique constraints", "UNIQUE "+strings.Join(st.Unique, ", "))
	}
	schema, err := freshSchema(fields)
	if err != nil {
		return Result{}, err
	}
	if len(st.PrimaryKey) > 0 {
		if schema, err = primaryKeySchema(fields, st.PrimaryKey); err != nil {
			return Result{}, err
		}
	}
	spec, err := buildSpec(schema, st.PartitionBy)
	if err != nil {
		return Result{}, err
	}
	props := map[string]string{}
	for _, p := range st.Properties {
		props[p.Key] = p.Value
	}
	if st.Comment != "" {
		props["comment"] = st.Comment
	}
	loc := s.engine.tableLocation(id.Namespace, id.Name)
	if st.Location != "" {
		if loc, err = locationURI(st.Location); err != nil {
			return Result{}, err
		}
	}
	if err := s.engine.checkTableLocation(ctx, id, loc, st.Location != ""); err != nil {
		return Result{}, err
	}
	if err := checkTablePropertyNames(props); err != nil {
		return Result{}, err
	}
	if err := s.engine.checkPathProperties(loc, props); err != nil {
		return Result{}, err
	}
	created := missingDirs(loc, s.engine.warehouseDir())
	opts := table.CreateOptions{Spec: spec, Properties: props}
	var n int64
	if query == nil {
		_, err = table.Create(ctx, s.engine.env, id, schema, loc, opts)
	} else {
		n, err = s.createAsSelect(ctx, id, schema, loc, opts, query)
	}
	if err != nil {
		if !errors.Is(err, iceberg.ErrCommitStateUnknown) {
			created.remove()
		}
		if errors.Is(err, iceberg.ErrTableAlreadyExists) {
			if verr := s.viewInstead(ctx, id, err); verr != err {
				return Result{}, verr // IF NOT EXISTS does not make a view a table
			}
			if st.IfNotExists {
				return Result{}, nil
			}
		}
		return Result{}, err
	}
	return Result{RowsAffected: n}, nil
}

// createAsSelect creates the table and its first snapshot in one commit
// (table.StageCreate): readers never see it empty, and a query that fails
// leaves no table. The name is checked first so that a taken one fails
// before the query runs; a create that wins meanwhile fails the commit.
func (s *Session) createAsSelect(ctx context.Context, id table.Identifier, schema *iceberg.Schema, loc string,
	opts table.CreateOptions, query *boundQuery) (int64, error) {
	taken, err := s.engine.catalog.TableExists(ctx, id)
	if err == nil && !taken && s.engine.catalog.SupportsViews() {
		taken, err = s.engine.catalog.ViewExists(ctx, id)
	}
	if err != nil {
		return 0, err
	}
	if taken {
		return 0, fmt.Errorf("%w: %s", iceberg.ErrTableAlreadyExists, id)
	}
	t, err := table.StageCreate(ctx, s.engine.env, id, schema, loc, opts)
	if err != nil {
		return 0, err
	}
	n, err := s.appendQuery(ctx, t, query, nil)
	if err == nil && n == 0 {
		_, err = t.CommitCreate(ctx) // no rows, so no snapshot: the table alone
	}
	return n, err
}

// locationURI turns a LOCATION given as a path into a file:// URI;
// file:// and s3:// locations stay as they are.
func locationURI(loc string) (string, error) {
	if strings.Contains(loc, "://") {
		if s3io.IsLocation(loc) {
			return strings.TrimRight(loc, "/"), nil
		}
		if !strings.HasPrefix(loc, "file://") {
			return "", notSupported("location %q: only file:// and s3:// locations", loc)
		}
		return strings.TrimRight(loc, "/"), nil
	}
	return fileio.LocalURI(loc)
}

// freshSchema assigns field ids 1..n depth-first (table.Create reassigns
// them again in the same way).
func freshSchema(fields []iceberg.NestedField) (*iceberg.Schema, error) {
	next := 0
	var assignType func(t iceberg.Type) iceberg.Type
	assignFields := func(fs []iceberg.NestedField) []iceberg.NestedField {
		out := make([]iceberg.NestedField, len(fs))
		for i, f := range fs {
			next++
			f.ID = next
			out[i] = f
		}
		for i := range out {
			out[i].Type = assignType(out[i].Type)
		}
		return out
	}
	assignType = func(t iceberg.Type) iceberg.Type {
		switch x := t.(type) {
		case *iceberg.StructType:
			return &iceberg.StructType{FieldList: assignFields(x.FieldList)}
		// Ids are taken before recursing: Go does not order reading next
		// against the calls in one composite literal.
		case *iceberg.ListType:
			next++
			id := next
			return &iceberg.ListType{ElementID: id, Element: assignType(x.Element), ElementRequired: x.ElementRequired}
		case *iceberg.MapType:
			next += 2
			kid, vid := next-1, next
			return &iceberg.MapType{KeyID: kid, Key: assignType(x.Key), ValueID: vid, Value: assignType(x.Value), ValueRequired: x.ValueRequired}
		}
		return t
	}
	return iceberg.NewSchema(0, assignFields(fields))
}

// buildSpec builds the partition spec of PARTITIONED BY.
func buildSpec(schema *iceberg.Schema, terms []parser.PartitionTerm) (*iceberg.PartitionSpec, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	b := iceberg.NewPartitionSpecBuilder(schema)
	for _, t := range terms {
		tr, err := iceberg.ParseTransform(t.IcebergTransform())
		if err != nil {
			return nil, err
		}
		col, err := resolveColumnName(schema, t.Column)
		if err != nil {
			return nil, err
		}
		b = b.Add(col, tr, t.Name)
	}
	return b.Build()
}

// resolveColumnName finds a column by name, case-insensitively, and
// returns its name as stored.
func resolveColumnName(schema *iceberg.Schema, name string) (string, error) {
	if _, ok := schema.FindFieldByName(name); ok {
		return name, nil
	}
	f, ok := schema.FindFieldByNameCaseInsensitive(name)
	if !ok {
		return "", unknownSchemaColumn(schema, name)
	}
	full, _ := schema.FindColumnName(f.ID)
	return full, nil
}

func (s *Session) dropTable(ctx context.Context, st *parser.DropTableStmt) error {
	id, err := s.ident(st.Table)
	if err != nil {
		return err
	}
	var t *table.Table
	if st.Purge {
		t, err = table.Load(ctx, s.engine.env, id)
		if err != nil && !(st.IfExists && errors.Is(err, iceberg.ErrNoSuchTable)) {
			return err
		}
	}
	if _, err := s.engine.catalog.DropTable(ctx, id); err != nil {
		if st.IfExists && errors.Is(err, iceberg.ErrNoSuchTable) {
			return nil
		}
		return err
	}
	if t != nil {
		return s.purgeFiles(ctx, t)
	}
	return nil
}

// purgeFiles removes every file reachable from the table's metadata: data
// and delete files, manifests, manifest lists and metadata files.
func (s *Session) purgeFiles(ctx context.Context, t *table.Table) error {
	return table.PurgeFiles(ctx, s.engine.env.IO, t.Metadata(), t.MetadataLocation())
}
