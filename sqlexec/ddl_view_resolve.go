package sqlexec

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

var (
	_ planner.ViewResolver = (*resolver)(nil)
	_ planner.ViewResolver = (*viewScope)(nil)
)

// parserRef is the parser's reference behind a planner reference.
func parserRef(ref planner.TableRef) *parser.TableRef {
	if tr, ok := ref.Extra.(*parser.TableRef); ok && tr != nil {
		return tr
	}
	tr := &parser.TableRef{Namespace: ref.Namespace, Table: ref.Name}
	tr.Parts = append(append([]string(nil), ref.Namespace...), ref.Name)
	return tr
}

// ResolveView expands a name of the session's query that is no table.
func (r *resolver) ResolveView(ctx context.Context, ref planner.TableRef) (*planner.View, error) {
	tr := parserRef(ref)
	id, err := r.s.ident(tr)
	if err != nil {
		return nil, err
	}
	return r.view(ctx, tr, id)
}

// viewScope resolves the names of a view's query: one-part names in the
// view's default namespace, tables through the query's resolver (so a
// table read twice is read at one version).
type viewScope struct {
	r  *resolver
	ns []string
}

func (v *viewScope) qualify(ref planner.TableRef) *parser.TableRef {
	tr := parserRef(ref)
	if len(tr.Namespace) > 0 {
		return tr
	}
	q := *tr
	q.Namespace = v.ns
	q.Parts = append(append([]string(nil), v.ns...), tr.Parts...)
	return &q
}

func (v *viewScope) ResolveTable(ctx context.Context, ref planner.TableRef) (planner.Table, error) {
	tr := v.qualify(ref)
	return v.r.ResolveTable(ctx, planner.TableRef{Namespace: tr.Namespace, Name: tr.Table, Extra: tr})
}

func (v *viewScope) ResolveView(ctx context.Context, ref planner.TableRef) (*planner.View, error) {
	tr := v.qualify(ref)
	id, err := v.r.s.ident(tr)
	if err != nil {
		return nil, err
	}
	return v.r.view(ctx, tr, id)
}

// view loads the view id and prepares its query; nil when there is no
// such view.
func (r *resolver) view(ctx context.Context, tr *parser.TableRef, id table.Identifier) (*planner.View, error) {
	if tr.MetadataTable != "" || tr.Branch != "" || tr.Tag != "" || tr.VersionAsOf != nil || tr.TimestampAsOf != nil {
		return nil, nil
	}
	lv, err := r.s.engine.loadView(ctx, id)
	if errors.Is(err, iceberg.ErrNoSuchView) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	name := id.String()
	version, _ := lv.meta.CurrentVersion()
	rep, ok := version.SQL(viewDialect)
	if !ok {
		return nil, &planner.ViewError{View: name, Err: fmt.Errorf("%w: no SQL representation", ErrNotSupported)}
	}
	query, refs, err := parseViewQuery(rep.SQL)
	if err != nil {
		return nil, &planner.ViewError{View: name, Err: fmt.Errorf("cannot read its %s SQL: %w", rep.Dialect, err)}
	}
	ns := version.DefaultNamespace
	if len(ns) == 0 {
		ns = id.Namespace
	}
	fields := lv.meta.CurrentSchema().Fields()
	cols := make([]string, len(fields))
	for i, f := range fields {
		cols[i] = f.Name
	}
	// A plan that read a view must not be reused after the view changes;
	// a non-Iceberg entry keeps the statement out of the plan cache.
	r.cache["\x00view "+name+" "+lv.location] = viewMarker{name: name}
	return &planner.View{
		Name:    name,
		Query:   query,
		Catalog: &viewScope{r: r, ns: ns},
		Options: planner.BindOptions{TableExtra: func(tn *ast.TableName) any {
			if ref, ok := refs[tn]; ok {
				return ref
			}
			return nil
		}},
		Columns: cols,
		Adapt:   func(i int, got arrow.DataType) (arrow.DataType, error) { return adaptViewColumn(fields[i], got) },
	}, nil
}

// parseViewQuery parses a view's SQL, which must be one query.
func parseViewQuery(sql string) (ast.ResultSetNode, parser.RefMap, error) {
	stmts, err := parser.Parse(sql)
	if err != nil {
		return nil, nil, err
	}
	if len(stmts) != 1 {
		return nil, nil, fmt.Errorf("%w: %d statements, want one query", ErrInvalidStatement, len(stmts))
	}
	w, ok := stmts[0].(*parser.TiDBStmt)
	if ok {
		if rs, ok := w.Node.(ast.ResultSetNode); ok {
			switch rs.(type) {
			case *ast.SelectStmt, *ast.SetOprStmt:
				return rs, w.Refs, nil
			}
		}
	}
	return nil, nil, fmt.Errorf("%w: not a query: %s", ErrInvalidStatement, firstWords(sql))
}

// adaptViewColumn is the type a view column has when its query now
// gives got: the stored type when got is it (or promotes to it), got when
// the table's column was widened (int to bigint, ...); anything else
// means the view no longer fits its tables.
func adaptViewColumn(f iceberg.NestedField, got arrow.DataType) (arrow.DataType, error) {
	want, err := arrowschema.TypeToArrow(f.Type)
	if err != nil {
		return nil, err
	}
	if arrow.TypeEqual(got, want) {
		return got, nil
	}
	gotType, err := arrowschema.TypeFromArrow(got)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", f.Name, err)
	}
	switch {
	case iceberg.CanPromote(gotType, f.Type):
		return want, nil
	case iceberg.CanPromote(f.Type, gotType):
		return got, nil
	}
	return nil, fmt.Errorf("column %s is %s in the view, but its query now returns %s (recreate the view)",
		f.Name, sparkType(f.Type), sparkType(gotType))
}

// viewMarker stands for a view among a query's resolved tables; it is
// never scanned.
type viewMarker struct{ name string }

func (v viewMarker) Name() string          { return v.name }
func (v viewMarker) Schema() *arrow.Schema { return schemaOf() }
func (v viewMarker) Scan(context.Context, planner.ScanRequest) (exec.RecordIterator, error) {
	return nil, fmt.Errorf("%w: view %s is not a table", ErrInvalidStatement, v.name)
}
