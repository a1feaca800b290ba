package sqlexec

import (
	"context"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// tempView is a session-temporary relation, as Spark's temporary views:
// create_changelog_view registers one. Its rows are computed when it is
// made and held by the session (on its connection: a *sql.DB pool's other
// connections do not see it) until it is replaced, dropped or the
// session ends. Nothing of it is in the catalog.
type tempView struct {
	name    string
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

var _ planner.Table = (*tempView)(nil)

func (v *tempView) Name() string          { return v.name }
func (v *tempView) Schema() *arrow.Schema { return v.schema }

// Scan serves the held batches, projected; the planner applies every
// filter (none is reported handled).
func (v *tempView) Scan(_ context.Context, req planner.ScanRequest) (exec.RecordIterator, error) {
	fields := make([]arrow.Field, len(req.Columns))
	for i, c := range req.Columns {
		fields[i] = v.schema.Field(c)
	}
	schema := arrow.NewSchema(fields, nil)
	out := make([]arrow.RecordBatch, 0, len(v.batches))
	for _, b := range v.batches {
		cols := make([]arrow.Array, len(req.Columns))
		for i, c := range req.Columns {
			cols[i] = b.Column(c)
		}
		out = append(out, array.NewRecordBatch(schema, cols, b.NumRows()))
	}
	return &batchIterator{schema: schema, batches: out}, nil
}

// release frees the view's batches.
func (v *tempView) release() { exec.ReleaseAll(v.batches) }

// tempViewKey is the lookup key of a temporary view name (single-part,
// case-insensitive as Spark's).
func tempViewKey(name string) string { return strings.ToLower(name) }

// tempViewFor is the temporary view a table reference names, if any: a
// single-part name without time travel or metadata suffix, which a
// temporary view shadows over a catalog table of that name, as in Spark.
func (s *Session) tempViewFor(tr *parser.TableRef) (*tempView, bool) {
	if len(s.tempViews) == 0 || len(tr.Parts) != 1 || tr.MetadataTable != "" || tr.Branch != "" || tr.Tag != "" ||
		tr.VersionAsOf != nil || tr.TimestampAsOf != nil {
		return nil, false
	}
	v, ok := s.tempViews[tempViewKey(tr.Parts[0])]
	return v, ok
}

// setTempView registers v, replacing (and releasing) a view of its name.
func (s *Session) setTempView(v *tempView) {
	if s.tempViews == nil {
		s.tempViews = map[string]*tempView{}
	}
	key := tempViewKey(v.name)
	if old, ok := s.tempViews[key]; ok {
		old.release()
	}
	s.tempViews[key] = v
}

// dropTempView drops the temporary view ref names; false when there is
// none.
func (s *Session) dropTempView(ref *parser.TableRef) bool {
	v, ok := s.tempViewFor(ref)
	if ok {
		v.release()
		delete(s.tempViews, tempViewKey(v.name))
	}
	return ok
}

// tempViewNames are the names of the session's temporary views, sorted.
func (s *Session) tempViewNames() []string {
	names := make([]string, 0, len(s.tempViews))
	for _, v := range s.tempViews {
		names = append(names, v.name)
	}
	slices.Sort(names)
	return names
}

// dropTempViews releases every temporary view (the session ends).
func (s *Session) dropTempViews() {
	for _, v := range s.tempViews {
		v.release()
	}
	s.tempViews = nil
}
