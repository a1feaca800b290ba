package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// boundQuery is a bound and optimized query ready to run.
type boundQuery struct {
	plan   planner.Plan
	schema *arrow.Schema
	res    *resolver
}

func (q *boundQuery) close() {}

// run builds the physical operators of the query.
func (q *boundQuery) run(ctx context.Context) (exec.RecordIterator, error) {
	ec := planner.NewEvalContext(ctx, nil)
	return planner.Build(ctx, ec, q.plan)
}

// bindQuery binds a SELECT (or set operation) through the planner,
// resolving tables through the parser's RefMap.
func (s *Session) bindQuery(ctx context.Context, node ast.Node, refs parser.RefMap) (*boundQuery, error) {
	return s.bindQueryWith(ctx, &resolver{s: s, cache: map[string]planner.Table{}}, node, refs)
}

// bindQueryWith binds with a given resolver (tables already resolved by
// it are read at the same version).
func (s *Session) bindQueryWith(ctx context.Context, res *resolver, node ast.Node, refs parser.RefMap) (*boundQuery, error) {
	opts := planner.BindOptions{TableExtra: func(tn *ast.TableName) any {
		if r, ok := refs[tn]; ok {
			return r
		}
		return nil
	}}
	p, err := planner.Bind(ctx, res, node, opts)
	if err != nil {
		return nil, err
	}
	if p, err = planner.Optimize(p); err != nil {
		return nil, err
	}
	return &boundQuery{plan: p, schema: planner.SchemaOf(p.Columns()), res: res}, nil
}

func (s *Session) selectRows(ctx context.Context, node ast.ResultSetNode, refs parser.RefMap) (*Rows, error) {
	if slot := slotFrom(ctx, node); slot != nil {
		if rows, ok, err := s.cachedSelect(ctx, slot, node, refs); ok {
			return rows, err
		}
	}
	q, err := s.bindQuery(ctx, node, refs)
	if err != nil {
		return nil, err
	}
	it, err := q.run(ctx)
	if err != nil {
		return nil, err
	}
	return newRows(it), nil
}

// resolver is the planner's catalog for one query. It resolves each table
// (and its snapshot) once, so a table read twice in a query is read at
// one version.
type resolver struct {
	s     *Session
	cache map[string]planner.Table
}

var _ planner.Catalog = (*resolver)(nil)

func (r *resolver) ResolveTable(ctx context.Context, ref planner.TableRef) (planner.Table, error) {
	tr, _ := ref.Extra.(*parser.TableRef)
	if tr == nil {
		tr = &parser.TableRef{Namespace: ref.Namespace, Table: ref.Name}
		tr.Parts = append(append([]string(nil), ref.Namespace...), ref.Name)
	}
	key := tr.String() + "|" + tr.MetadataTable + "|" + tr.Branch + "|" + tr.Tag
	if t, ok := r.cache[key]; ok {
		return t, nil
	}
	if v, ok := r.s.tempViewFor(tr); ok {
		return v, nil
	}
	t, err := r.s.openTable(ctx, tr)
	if errors.Is(err, iceberg.ErrNoSuchTable) && !errors.Is(err, planner.ErrUnknownTable) {
		// Match the planner's sentinel too, keeping the catalog's.
		return nil, r.s.unknownTable(ctx, tr, err)
	}
	if err != nil {
		return nil, err
	}
	r.cache[key] = t
	return t, nil
}

// openTable resolves a table reference to a readable table at one snapshot.
func (s *Session) openTable(ctx context.Context, tr *parser.TableRef) (planner.Table, error) {
	t, err := s.loadTable(ctx, tr)
	if err != nil {
		return nil, err
	}
	meta := t.Metadata()
	snap, err := s.pickSnapshot(ctx, meta, tr)
	if err != nil {
		return nil, err
	}
	if tr.MetadataTable != "" {
		return s.metadataTable(ctx, t, snap, tr.MetadataTable)
	}
	schema := meta.CurrentSchema()
	timeTravel := tr.VersionAsOf != nil || tr.TimestampAsOf != nil || tr.Tag != "" || (readOptionsFrom(ctx) != nil && tr.Branch == "")
	if snap != nil && timeTravel && snap.SchemaID != nil {
		// Time travel reads with the schema of the snapshot, as Spark does.
		if sch, ok := meta.SchemaByID(*snap.SchemaID); ok {
			schema = sch
		}
	}
	it, err := newIcebergTable(t, snap, schema)
	if err != nil {
		return nil, err
	}
	it.manifests = s.engine.manifests
	it.files = s.engine.files
	it.skipPageChecksums = s.engine.cfg.SkipPageChecksums
	return it, nil
}

// pickSnapshot is the snapshot a reference reads: the current one, a
// branch or tag, VERSION AS OF or TIMESTAMP AS OF. nil means empty.
func (s *Session) pickSnapshot(ctx context.Context, meta *iceberg.TableMetadata, tr *parser.TableRef) (*iceberg.Snapshot, error) {
	switch {
	case tr.Branch != "" || tr.Tag != "":
		name := tr.Branch
		if name == "" {
			name = tr.Tag
		}
		return meta.SnapshotByName(name)
	case tr.VersionAsOf != nil:
		switch v := tr.VersionAsOf.(type) {
		case int64:
			snap, ok := meta.SnapshotByID(v)
			if !ok {
				return nil, fmt.Errorf("%w: %d", iceberg.ErrNoSuchSnapshot, v)
			}
			return snap, nil
		case string:
			return meta.SnapshotByName(v)
		}
		return nil, invalidf("bad VERSION AS OF value %v", tr.VersionAsOf)
	case tr.TimestampAsOf != nil:
		ms, err := s.evalTimestamp(ctx, tr.TimestampAsOf)
		if err != nil {
			return nil, err
		}
		return meta.SnapshotAsOf(ms)
	}
	if o := readOptionsFrom(ctx); o != nil {
		return o.snapshotFor(meta)
	}
	return meta.CurrentSnapshot(), nil
}

// evalTimestamp evaluates a TIMESTAMP AS OF expression to epoch millis:
// a timestamp, a timestamp string (UTC), or a number of epoch seconds.
func (s *Session) evalTimestamp(ctx context.Context, e ast.ExprNode) (int64, error) {
	sel := &ast.SelectStmt{Kind: ast.SelectStmtKindSelect, Fields: &ast.FieldList{Fields: []*ast.SelectField{{Expr: e}}}}
	q, err := s.bindQuery(ctx, sel, nil)
	if err != nil {
		return 0, fmt.Errorf("TIMESTAMP AS OF: %w", err)
	}
	it, err := q.run(ctx)
	if err != nil {
		return 0, err
	}
	batches, err := exec.Collect(ctx, it)
	if err != nil {
		return 0, err
	}
	defer exec.ReleaseAll(batches)
	if len(batches) == 0 || batches[0].NumRows() != 1 {
		return 0, invalidf("TIMESTAMP AS OF must give one value")
	}
	col := batches[0].Column(0)
	v := exec.ValueAt(col, 0)
	switch x := v.(type) {
	case nil:
		return 0, invalidf("TIMESTAMP AS OF is NULL")
	case int64:
		if col.DataType().ID() == arrow.TIMESTAMP {
			return x / 1000, nil
		}
		return x * 1000, nil
	case arrow.Timestamp:
		return int64(x) / 1000, nil
	case string:
		out, err := exec.CastValue(x, arrow.BinaryTypes.String, tTimestamp)
		if err != nil {
			return 0, invalidf("TIMESTAMP AS OF %q: %v", x, err)
		}
		return timestampMillis(out)
	}
	return timestampMillis(v)
}

func timestampMillis(v any) (int64, error) {
	switch x := v.(type) {
	case arrow.Timestamp:
		return int64(x) / 1000, nil
	case int64:
		return x / 1000, nil
	}
	return 0, invalidf("TIMESTAMP AS OF: not a timestamp (%T)", v)
}

// fieldsFromArrow turns a query's columns into table fields (CTAS).
func fieldsFromArrow(s *arrow.Schema) ([]iceberg.NestedField, error) {
	out := make([]iceberg.NestedField, s.NumFields())
	seen := map[string]bool{}
	for i, f := range s.Fields() {
		t, err := arrowschema.TypeFromArrow(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		if seen[strings.ToLower(f.Name)] {
			return nil, invalidf("duplicate column name %q in the query", f.Name)
		}
		seen[strings.ToLower(f.Name)] = true
		// Like Spark, CTAS columns are optional whatever the query says.
		out[i] = iceberg.NestedField{Name: f.Name, Type: t}
	}
	return out, nil
}
