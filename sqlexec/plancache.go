package sqlexec

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"
	tidb "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// A prepared SELECT or INSERT ... VALUES keeps its bound and optimized
// plan between runs (a planTemplate) and only puts the new arguments in
// place of the literals that stand for its placeholders. The template is
// reused while the tables it read are at the same metadata location (a
// commit, schema change or re-creation moves it), the session namespace is
// the same and the arguments are of the same kinds; otherwise the
// statement is planned again.
type planTemplate struct {
	kinds     string
	namespace string
	tables    []tableVersion
	// plan is nil when the statement cannot be reused (its plan depends
	// on the arguments in ways substitution cannot follow).
	plan   planner.Plan
	target *arrow.Schema // INSERT: the table's columns
	sites  []literalSite
	busy   atomic.Bool // rows of the plan are still open
	// uses counts the runs of plan; stale counts runs planned anew since
	// it went out of date (see churning).
	uses, stale int
}

// churning reports whether t went out of date before a second use, and
// counts a run planned without it: while the tables it reads change
// between runs, probe planning (two plans) costs more than it saves, so
// only every fourth such run makes a new template.
func (t *planTemplate) churning() bool {
	if t == nil || t.plan == nil || t.uses > 1 || t.stale >= 3 {
		return false
	}
	t.stale++
	return true
}

// tableVersion is what a template depends on in a table: its metadata
// location for a query (the plan reads one snapshot), its identity and
// schema for an INSERT ... VALUES (see insertVersion).
type tableVersion struct {
	id       table.Identifier
	location string
}

// insertVersion identifies a table's columns: a new schema or a
// re-created table changes it, a commit of data does not.
func insertVersion(t *table.Table) string {
	m := t.Metadata()
	return fmt.Sprintf("%s#%d", m.TableUUID(), m.CurrentSchemaID())
}

// stmtSlot carries one prepared statement's run to the code that plans it.
type stmtSlot struct {
	p     *Prepared
	i     int
	node  ast.Node
	kinds string
	args  []any
	vals  []any // args as the planner's literals hold them
}

type slotKey struct{}

func slotFrom(ctx context.Context, node ast.Node) *stmtSlot {
	s, _ := ctx.Value(slotKey{}).(*stmtSlot)
	if s == nil || s.node != node {
		return nil
	}
	return s
}

// planSlot returns ctx carrying a slot when statement i may reuse a plan:
// autocommit, no per-query snapshot, a SELECT or INSERT ... VALUES whose
// arguments are integers, floats or strings, without time functions.
func (p *Prepared) planSlot(ctx context.Context, i int, args []any) context.Context {
	if p.runs == 0 || p.s.replan || p.s.tx != nil || readOptionsFrom(ctx) != nil {
		// A statement run once is not worth the probe plans.
		return ctx
	}
	w, ok := p.stmts[i].(*parser.TiDBStmt)
	if !ok {
		return ctx
	}
	switch n := w.Node.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
	case *ast.InsertStmt:
		if n.Select != nil {
			return ctx
		}
	default:
		return ctx
	}
	for _, r := range w.Refs {
		if r.MetadataTable != "" || r.VersionAsOf != nil || r.TimestampAsOf != nil || r.Tag != "" {
			return ctx
		}
	}
	if hasTimeFunction(w.Node) || !placeholdersPlain(p.binds[i], w.Node) {
		return ctx
	}
	kinds, vals, ok := argKinds(args)
	if !ok {
		return ctx
	}
	return context.WithValue(ctx, slotKey{}, &stmtSlot{p: p, i: i, node: w.Node, kinds: kinds, args: args, vals: vals})
}

// argKinds is the kind of each argument ('i' integer, 'f' float, 's'
// string) and its value as a planner literal holds it.
func argKinds(args []any) (string, []any, bool) {
	var kinds strings.Builder
	vals := make([]any, len(args))
	for i, a := range args {
		d, err := datumOf(a)
		if err != nil {
			return "", nil, false
		}
		switch d.Kind() {
		case tidb.KindInt64:
			kinds.WriteByte('i')
			vals[i] = d.GetInt64()
		case tidb.KindFloat64:
			kinds.WriteByte('f')
			vals[i] = d.GetFloat64()
		case tidb.KindString:
			kinds.WriteByte('s')
			vals[i] = d.GetString()
		default:
			return "", nil, false
		}
	}
	return kinds.String(), vals, true
}

func kindType(k byte) arrow.DataType {
	switch k {
	case 'i':
		return arrow.PrimitiveTypes.Int64
	case 'f':
		return arrow.PrimitiveTypes.Float64
	}
	return arrow.BinaryTypes.String
}

// probe is argument i of probe set 0 or 1: values unlikely in a query's
// own text and different between the sets.
func probe(set, i int, kind byte) any {
	switch kind {
	case 'i':
		if set == 0 {
			return int64(1_000_003 + 7_919*i)
		}
		return int64(2_000_029 + 104_729*i)
	case 'f':
		if set == 0 {
			return 1e6 + 0.375 + float64(i)
		}
		return 2e6 + 0.625 + 3*float64(i)
	}
	return fmt.Sprintf("\x00icesql probe %d.%d", set, i)
}

func probeArgs(set int, kinds string) []any {
	out := make([]any, len(kinds))
	for i := range out {
		out[i] = probe(set, i, kinds[i])
	}
	return out
}

// asLiteral is v (of kind k) in the type of lit, as the binder coerces
// literals it can represent exactly; false when v does not convert
// exactly (the binder would then have planned a wider comparison).
func asLiteral(v any, k byte, lit *planner.Literal) (any, bool) {
	from := kindType(k)
	if arrow.TypeEqual(from, lit.Type) {
		return v, true
	}
	out, err := exec.CastValue(v, from, lit.Type)
	if err != nil {
		return nil, false
	}
	back, err := exec.CastValue(out, lit.Type, from)
	if err != nil || !reflect.DeepEqual(back, v) {
		return nil, false
	}
	return out, true
}

// usable reports whether t may run this slot now.
func (s *Session) usable(ctx context.Context, t *planTemplate, slot *stmtSlot) bool {
	if t == nil || t.kinds != slot.kinds || t.namespace != strings.Join(s.namespace, "\x00") {
		return false
	}
	if len(t.tables) == 0 {
		return true
	}
	ids := make([]table.Identifier, len(t.tables))
	for i, tv := range t.tables {
		ids[i] = tv.id
	}
	// One read for all, so the reused plan reads one instant (stmtview.go).
	locs, err := s.engine.env.Catalog.CurrentMetadataLocations(ctx, ids)
	if err != nil {
		return false
	}
	for i, tv := range t.tables {
		if locs[i] != tv.location {
			return false
		}
	}
	return true
}

// substitute puts the slot's arguments in the template's literals; false
// when one does not convert as the binder would have converted it.
func (t *planTemplate) substitute(slot *stmtSlot) bool {
	vals := make([]any, len(t.sites))
	for k, site := range t.sites {
		v, ok := asLiteral(slot.vals[site.param], slot.kinds[site.param], site.lit)
		if !ok {
			return false
		}
		vals[k] = v
	}
	for k, site := range t.sites {
		site.lit.Value = vals[k]
	}
	return true
}

// makeTemplate plans the statement with two probe argument sets through
// plan and keeps the first plan if its literals follow the arguments.
// The statement's placeholders are bound to the slot's arguments again
// before it returns.
func (s *Session) makeTemplate(slot *stmtSlot, plan func(set int) (planner.Plan, error)) *planTemplate {
	pb := slot.p.binds[slot.i]
	defer pb.bind(slot.args)
	t := &planTemplate{kinds: slot.kinds, namespace: strings.Join(s.namespace, "\x00")}
	var walks [2]*planWalk
	var plans [2]planner.Plan
	for set := range 2 {
		if err := pb.bind(probeArgs(set, slot.kinds)); err != nil {
			return t
		}
		p, err := plan(set)
		if err != nil {
			return t
		}
		plans[set], walks[set] = p, walkPlan(p)
	}
	probeAs := func(set, param int, lit *planner.Literal) (any, bool) {
		return asLiteral(probe(set, param, slot.kinds[param]), slot.kinds[param], lit)
	}
	sites, ok := matchSites(walks[0], walks[1], len(slot.kinds), probeAs)
	if ok {
		t.plan, t.sites = plans[0], sites
	}
	return t
}

// hasTimeFunction reports whether a statement reads the clock or random
// values, which a reused plan would freeze.
func hasTimeFunction(n ast.Node) bool {
	v := &timeFuncFinder{}
	n.Accept(v)
	return v.found
}

type timeFuncFinder struct{ found bool }

var clockFunctions = map[string]bool{
	"now": true, "current_timestamp": true, "current_date": true, "current_time": true,
	"localtime": true, "localtimestamp": true, "curdate": true, "curtime": true, "sysdate": true,
	"utc_timestamp": true, "utc_date": true, "utc_time": true, "unix_timestamp": true,
	"rand": true, "random": true, "uuid": true,
}

func (v *timeFuncFinder) Enter(n ast.Node) (ast.Node, bool) {
	if f, ok := n.(*ast.FuncCallExpr); ok && clockFunctions[f.FnName.L] {
		v.found = true
	}
	return n, v.found
}

func (v *timeFuncFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// cachedSelect runs a prepared SELECT with its template, making the
// template on first use; false when the statement must be planned anew.
func (s *Session) cachedSelect(ctx context.Context, slot *stmtSlot, node ast.Node, refs parser.RefMap) (*Rows, bool, error) {
	t := slot.p.tmpls[slot.i]
	if !s.usable(ctx, t, slot) {
		if t.churning() {
			return nil, false, nil
		}
		res := &resolver{s: s, cache: map[string]planner.Table{}}
		t = s.makeTemplate(slot, func(int) (planner.Plan, error) {
			q, err := s.bindQueryWith(ctx, res, node, refs)
			if err != nil {
				return nil, err
			}
			return q.plan, nil
		})
		for _, tab := range res.cache {
			it, ok := tab.(*icebergTable)
			if !ok {
				t.plan = nil
				break
			}
			t.tables = append(t.tables, tableVersion{id: it.t.Ident(), location: it.t.MetadataLocation()})
		}
		slot.p.tmpls[slot.i] = t
	}
	if t.plan == nil || !t.busy.CompareAndSwap(false, true) {
		return nil, false, nil
	}
	if !t.substitute(slot) {
		t.busy.Store(false)
		return nil, false, nil
	}
	t.uses++
	it, err := planner.Build(ctx, planner.NewEvalContext(ctx, nil), t.plan)
	if err != nil {
		t.busy.Store(false)
		return nil, true, err
	}
	rows := newRows(it)
	rows.onClose = func() { t.busy.Store(false) }
	return rows, true, nil
}

// cachedInsertValues is the plan of a prepared INSERT ... VALUES into tab
// (already loaded) with this run's arguments, or nil to plan anew. The
// plan only depends on the table's columns, so commits (such as the
// previous run's) do not make it stale. The caller runs it to the end
// before the next run.
func (s *Session) cachedInsertValues(ctx context.Context, slot *stmtSlot, tab *table.Table, ins *ast.InsertStmt) planner.Plan {
	t := slot.p.tmpls[slot.i]
	ns := strings.Join(s.namespace, "\x00")
	version := insertVersion(tab)
	if t == nil || t.kinds != slot.kinds || t.namespace != ns || len(t.tables) != 1 || t.tables[0].location != version {
		if t.churning() {
			return nil
		}
		target, err := arrowSchemaOf(tab)
		if err != nil {
			return nil
		}
		t = s.makeTemplate(slot, func(int) (planner.Plan, error) {
			return planner.BindInsertValues(ctx, ins, target)
		})
		t.tables = []tableVersion{{id: tab.Ident(), location: version}}
		slot.p.tmpls[slot.i] = t
	}
	if t.plan == nil || t.busy.Load() || !t.substitute(slot) {
		return nil
	}
	t.uses++
	return t.plan
}
