package sqlexec

import (
	"context"
	"errors"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/parser"
)

// showViews runs SHOW VIEWS [IN ns] [LIKE p] with Spark's columns.
func (s *Session) showViews(ctx context.Context, st *parser.ShowViewsStmt) (*Rows, error) {
	return s.showObjects(ctx, st.In, st.Like, s.engine.catalog.ListViews, "viewName")
}

// loadViewRef loads the view a statement names.
func (s *Session) loadViewRef(ctx context.Context, ref *parser.TableRef) (*loadedView, error) {
	id, err := s.viewIdent(ref)
	if err != nil {
		return nil, err
	}
	return s.engine.loadView(ctx, id)
}

// isNoSuchTable reports a missing table that might be a view: plain
// names only (metadata tables, branches and time travel are tables').
func isNoSuchTable(err error, ref *parser.TableRef) bool {
	return errors.Is(err, iceberg.ErrNoSuchTable) && ref.MetadataTable == "" && ref.Branch == "" &&
		ref.Tag == "" && ref.VersionAsOf == nil && ref.TimestampAsOf == nil
}

// showCreateView prints CREATE VIEW as Spark's SHOW CREATE TABLE does for
// a view: the column list with comments, COMMENT, TBLPROPERTIES, AS sql.
func (s *Session) showCreateView(ctx context.Context, ref *parser.TableRef) (*Rows, error) {
	v, err := s.loadViewRef(ctx, ref)
	if err != nil {
		return nil, err
	}
	version, _ := v.meta.CurrentVersion()
	rep, ok := version.SQL(viewDialect)
	if !ok {
		return nil, notSupported("view %s has no SQL representation", v.id)
	}
	var b strings.Builder
	b.WriteString("CREATE VIEW " + parser.QuoteName(append([]string{s.engine.catalogName()}, append(append([]string(nil), v.id.Namespace...), v.id.Name)...)) + " (\n")
	for i, f := range v.meta.CurrentSchema().Fields() {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  " + parser.QuoteIdent(f.Name))
		if f.Doc != "" {
			b.WriteString(" COMMENT " + parser.QuoteString(f.Doc))
		}
	}
	b.WriteString(")\n")
	props := v.meta.Properties
	if c := props[iceberg.ViewPropertyComment]; c != "" {
		b.WriteString("COMMENT " + parser.QuoteString(c) + "\n")
	}
	writeTblProperties(&b, props, iceberg.ViewPropertyComment)
	b.WriteString("AS " + rep.SQL + "\n")
	return memRows(schemaOf(field("createtab_stmt", tString, false)), [][]any{{b.String()}})
}

// showCreateTableOrView runs SHOW CREATE TABLE, printing a view's CREATE
// VIEW when the name is a view.
func (s *Session) showCreateTableOrView(ctx context.Context, st *parser.ShowCreateTableStmt) (*Rows, error) {
	rows, err := s.showCreateTable(ctx, st)
	if isNoSuchTable(err, st.Table) {
		if vrows, verr := s.showCreateView(ctx, st.Table); verr == nil {
			return vrows, nil
		}
	}
	return rows, err
}

// describeTableOrView runs DESCRIBE, falling back to a view of the name.
func (s *Session) describeTableOrView(ctx context.Context, st *parser.DescribeStmt) (*Rows, error) {
	rows, err := s.describe(ctx, st)
	if !isNoSuchTable(err, st.Table) {
		return rows, err
	}
	v, verr := s.loadViewRef(ctx, st.Table)
	if errors.Is(verr, iceberg.ErrNoSuchView) {
		return rows, err
	}
	if verr != nil {
		return nil, verr
	}
	var out [][]any
	for _, f := range v.meta.CurrentSchema().Fields() {
		var doc any
		if f.Doc != "" {
			doc = f.Doc
		}
		out = append(out, []any{f.Name, sparkType(f.Type), doc})
	}
	if st.Extended {
		version, _ := v.meta.CurrentVersion()
		rep, _ := version.SQL(viewDialect)
		out = append(out, []any{"", "", nil}, []any{"# Detailed View Information", "", nil},
			[]any{"Name", s.engine.catalogName() + "." + v.id.String(), nil},
			[]any{"Type", "VIEW", nil},
			[]any{"View Text", rep.SQL, nil},
			[]any{"View Current Namespace", strings.Join(version.DefaultNamespace, "."), nil},
			[]any{"View Version", itoa(version.VersionID), nil},
			[]any{"View Properties", "[" + propertyList(v.meta.Properties, ",") + "]", nil})
	}
	return memRows(schemaOf(field("col_name", tString, false), field("data_type", tString, false), field("comment", tString, true)), out)
}
