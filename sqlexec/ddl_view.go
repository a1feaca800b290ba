package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// viewDialect is the dialect of the SQL views store; our SQL is written
// for (and read back by) the same Spark-flavoured parser.
const viewDialect = "spark"

// viewEngineName goes into each view version's summary.
const viewEngineName = "icesql"

// viewIdent resolves a view name against the session namespace.
func (s *Session) viewIdent(ref *parser.TableRef) (table.Identifier, error) {
	if ref.MetadataTable != "" || ref.Branch != "" || ref.Tag != "" || ref.VersionAsOf != nil || ref.TimestampAsOf != nil {
		return table.Identifier{}, invalidf("%s is not a view name", ref)
	}
	return s.ident(ref)
}

// createView runs CREATE [OR REPLACE] VIEW and ALTER VIEW ... AS. The
// query is bound now, so unknown tables or columns fail here.
func (s *Session) createView(ctx context.Context, st *parser.CreateViewStmt) error {
	if err := s.engine.requireViews(); err != nil {
		return err
	}
	id, err := s.viewIdent(st.View)
	if err != nil {
		return err
	}
	mc := &markerCounter{}
	st.Query.Node.Accept(mc)
	if len(mc.markers) > 0 {
		return invalidf("view %s: a stored query cannot have ? placeholders", id)
	}
	if exists, err := s.engine.catalog.TableExists(ctx, id); err != nil {
		return err
	} else if exists {
		return fmt.Errorf("%w: cannot create view %s: a table of that name exists", iceberg.ErrTableAlreadyExists, id)
	}
	old, err := s.engine.loadView(ctx, id)
	switch {
	case errors.Is(err, iceberg.ErrNoSuchView):
		if st.Alter {
			return err
		}
		old = nil
	case err != nil:
		return err
	case st.IfNotExists:
		return nil
	case !st.OrReplace && !st.Alter:
		return fmt.Errorf("%w: %s", iceberg.ErrViewAlreadyExists, id)
	}
	schema, err := s.viewSchema(ctx, id, st)
	if err != nil {
		return err
	}
	version := iceberg.ViewVersion{
		TimestampMs:      time.Now().UnixMilli(),
		Summary:          map[string]string{iceberg.ViewSummaryEngineName: viewEngineName, iceberg.ViewSummaryEngineVersion: table.EngineVersion},
		Representations:  []iceberg.ViewRepresentation{{Type: iceberg.ViewRepresentationSQL, SQL: st.Query.Text, Dialect: viewDialect}},
		DefaultNamespace: append([]string(nil), s.namespace...),
	}
	var props map[string]string
	if !st.Alter {
		props = map[string]string{}
		for _, p := range st.Properties {
			props[p.Key] = p.Value
		}
		if st.Comment != "" {
			props[iceberg.ViewPropertyComment] = st.Comment
		}
	}
	var meta *iceberg.ViewMetadata
	if old == nil {
		meta, err = iceberg.NewViewMetadata(s.engine.viewLocation(id), schema, version, props)
	} else {
		meta, err = old.meta.ReplaceVersion(schema, version, props)
	}
	if err != nil {
		return err
	}
	err = s.engine.commitView(ctx, id, old, meta)
	if old == nil && st.IfNotExists && errors.Is(err, iceberg.ErrViewAlreadyExists) {
		return nil
	}
	return err
}

// viewSchema binds the view's query and returns the Iceberg schema of its
// output, renamed and commented by the column list.
func (s *Session) viewSchema(ctx context.Context, id table.Identifier, st *parser.CreateViewStmt) (*iceberg.Schema, error) {
	q, err := s.bindQuery(planner.WithViewBeingDefined(ctx, id.String()), st.Query.Node, st.Refs)
	if err != nil {
		return nil, err
	}
	defer q.close()
	cols := q.schema.Fields()
	if len(st.Columns) > 0 && len(st.Columns) != len(cols) {
		return nil, invalidf("view %s names %d columns but its query returns %d", id, len(st.Columns), len(cols))
	}
	fields := make([]iceberg.NestedField, len(cols))
	seen := map[string]bool{}
	for i, c := range cols {
		t, err := arrowschema.TypeFromArrow(c.Type)
		if err != nil {
			return nil, fmt.Errorf("view %s column %q: %w", id, c.Name, err)
		}
		f := iceberg.NestedField{Name: c.Name, Type: t}
		if len(st.Columns) > 0 {
			f.Name, f.Doc = st.Columns[i].Name, st.Columns[i].Comment
		}
		key := strings.ToLower(f.Name)
		if seen[key] {
			return nil, invalidf("view %s has two columns named %q (name them in a column list)", id, f.Name)
		}
		seen[key] = true
		fields[i] = f
	}
	return freshSchema(fields)
}

// dropView runs DROP VIEW; the dropped view's current metadata file is
// removed as Java does.
func (s *Session) dropView(ctx context.Context, st *parser.DropViewStmt) error {
	if s.dropTempView(st.View) {
		return nil
	}
	if err := s.engine.requireViews(); err != nil {
		return err
	}
	id, err := s.viewIdent(st.View)
	if err != nil {
		return err
	}
	rec, err := s.engine.catalog.DropView(ctx, id)
	if errors.Is(err, iceberg.ErrNoSuchView) {
		if exists, terr := s.engine.catalog.TableExists(ctx, id); terr == nil && exists {
			return invalidf("%s is a table, not a view: use DROP TABLE", id)
		}
		if st.IfExists {
			return nil
		}
	}
	if err != nil {
		return err
	}
	if rec.MetadataLocation != "" && s.engine.ownsViewFiles() {
		return s.engine.env.IO.Remove(ctx, rec.MetadataLocation)
	}
	return nil
}

// dropTableOrView runs DROP TABLE, refusing a view's name.
func (s *Session) dropTableOrView(ctx context.Context, st *parser.DropTableStmt) error {
	if st.Table.MetadataTable == "" && st.Table.Branch == "" && st.Table.Tag == "" {
		if id, err := s.ident(st.Table); err == nil {
			if isView, err := s.engine.catalog.ViewExists(ctx, id); err == nil && isView {
				return invalidf("%s is a view, not a table: use DROP VIEW", id)
			}
		}
	}
	return s.dropTable(ctx, st)
}

// alterView runs ALTER VIEW ... RENAME TO and SET/UNSET TBLPROPERTIES.
func (s *Session) alterView(ctx context.Context, st *parser.AlterViewStmt) error {
	if err := s.engine.requireViews(); err != nil {
		return err
	}
	id, err := s.viewIdent(st.View)
	if err != nil {
		return err
	}
	if st.RenameTo != nil {
		to, err := s.viewIdent(st.RenameTo)
		if err != nil {
			return err
		}
		if len(st.RenameTo.Namespace) == 0 {
			// A one-part new name stays in the view's namespace, as in Spark.
			to.Namespace = id.Namespace
		}
		if err := checkNewIdent(to); err != nil {
			return err
		}
		return s.engine.catalog.RenameView(ctx, id, to)
	}
	old, err := s.engine.loadView(ctx, id)
	if err != nil {
		return err
	}
	props := map[string]string{}
	for k, v := range old.meta.Properties {
		props[k] = v
	}
	for _, p := range st.Set {
		props[p.Key] = p.Value
	}
	for _, k := range st.Unset {
		if _, ok := props[k]; !ok && !st.IfExists {
			return invalidf("view %s has no property %q", id, k)
		}
		delete(props, k)
	}
	meta := *old.meta
	meta.Properties = props
	return s.engine.commitView(ctx, id, old, &meta)
}
