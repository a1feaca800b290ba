package sqlexec

import (
	"context"
	"fmt"
	"github.com/icesql/icesql/sqlexec/exec"
	"slices"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/parser"
)

// Session runs statements for one connection. It is not safe for
// concurrent use (database/sql never shares a connection).
type Session struct {
	engine    *Engine
	namespace []string
	tx        *sessionTxn // nil in autocommit mode
	// stmts keeps the parsed statements of recent Exec and Query texts.
	stmts *stmtCache
	// replan turns plan reuse off (benchmarks compare with it).
	replan bool
	// props are the session properties SET assigns (spark.wap.id, ...).
	props map[string]string
	// tempViews are the session's temporary views by lower-case name.
	tempViews map[string]*tempView
	// view is the running statement's view of the catalog (stmtview.go).
	view *stmtView
}

// Namespace is the session's current namespace (USE changes it).
func (s *Session) Namespace() []string { return s.namespace }

// Engine is the session's engine.
func (s *Session) Engine() *Engine { return s.engine }

// Exec runs every statement of sql and returns the last one's result;
// rows of queries are read and discarded.
func (s *Session) Exec(ctx context.Context, sql string, args []any) (Result, error) {
	p, err := s.prepareCached(sql)
	if err != nil {
		return Result{}, err
	}
	return p.Exec(ctx, args)
}

// Query runs every statement of sql and returns the rows of the last one
// (an empty result for statements without rows).
func (s *Session) Query(ctx context.Context, sql string, args []any) (*Rows, error) {
	p, err := s.prepareCached(sql)
	if err != nil {
		return nil, err
	}
	return p.Query(ctx, args)
}

// Prepared is a parsed script whose placeholders are bound at each run.
type Prepared struct {
	s     *Session
	stmts []parser.Statement
	binds []*paramBinder
	// tmpls are the reusable plans of the statements (nil: none yet).
	tmpls []*planTemplate
	n     int // ? placeholders after $n and :name became ?
	ph    placeholders
	// source is the text of a one-statement Prepared, for carets under
	// names in the extension layer's statements; "" for scripts.
	source string
	runs   int // completed runs; plans are kept from the second on
	mu     sync.Mutex
}

// Prepare parses sql once for many runs.
func (s *Session) Prepare(sql string) (*Prepared, error) {
	if s.engine.isClosed() {
		return nil, ErrClosed
	}
	stmts, style, list, err := parser.ParseWithPlaceholders(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) == 0 {
		return nil, fmt.Errorf("%w: empty statement", ErrInvalidStatement)
	}
	p := &Prepared{s: s, stmts: stmts, tmpls: make([]*planTemplate, len(stmts)), ph: newPlaceholders(style, list)}
	if len(stmts) == 1 {
		p.source = sql
	}
	for _, st := range stmts {
		pb := newParamBinder(st)
		p.binds = append(p.binds, pb)
		p.n += pb.count
	}
	if style != parser.Positional && p.n != len(list) {
		return nil, &ParamError{Msg: fmt.Sprintf("%d of the statement's %d placeholders stand where no value can be bound", len(list)-p.n, len(list))}
	}
	return p, nil
}

// NumInput is the number of arguments the statement takes: its ?
// placeholders, its highest $n, or its distinct :names.
func (p *Prepared) NumInput() int { return p.ph.numInput(p.n) }

// Statements are the parsed statements.
func (p *Prepared) Statements() []parser.Statement { return p.stmts }

// Exec runs the statements with args.
func (p *Prepared) Exec(ctx context.Context, args []any) (Result, error) {
	var res Result
	err := p.run(ctx, args, func(ctx context.Context, i int, st parser.Statement) error {
		r, err := p.s.execOne(ctx, st)
		res = r
		return err
	})
	return res, err
}

// Query runs the statements with args and returns the rows of the last.
func (p *Prepared) Query(ctx context.Context, args []any) (*Rows, error) {
	var rows *Rows
	err := p.run(ctx, args, func(ctx context.Context, i int, st parser.Statement) error {
		if i < len(p.stmts)-1 {
			_, err := p.s.execOne(ctx, st)
			return err
		}
		var err error
		rows, err = p.s.queryOne(ctx, st)
		return err
	})
	return rows, err
}

func (p *Prepared) run(ctx context.Context, args []any, fn func(context.Context, int, parser.Statement) error) error {
	args, err := p.ph.resolveArgs(args)
	if err != nil {
		return err
	}
	if len(args) != p.n {
		return &ParamError{Msg: fmt.Sprintf("statement has %d placeholders, got %d arguments", p.n, len(args))}
	}
	if p.s.engine.isClosed() {
		return ErrClosed
	}
	if _, set := exec.MemoryConfigFrom(ctx); !set {
		cfg := p.s.engine.cfg
		ctx = exec.WithMemoryConfig(ctx, exec.MemoryConfig{Limit: cfg.MemoryLimit, SpillDir: cfg.SpillDir})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	off := 0
	for i, st := range p.stmts {
		pb := p.binds[i]
		if err := pb.bind(args[off : off+pb.count]); err != nil {
			if pe, ok := err.(*ParamError); ok && pe.Index > 0 {
				pe.Index += off
				p.ph.argLabel(pe)
			}
			return err
		}
		outer := p.s.view
		if outer == nil { // a statement run by a statement reads in its view
			p.s.view = p.s.newStmtView(st)
		}
		err := fn(p.planSlot(ctx, i, args[off:off+pb.count]), i, st)
		p.s.view = outer
		if err != nil {
			return locate(err, st, p.source)
		}
		off += pb.count
	}
	p.runs++
	return nil
}

// execOne runs a statement for its effect.
func (s *Session) execOne(ctx context.Context, st parser.Statement) (Result, error) {
	if err := checkReadOptions(ctx, st); err != nil {
		return Result{}, err
	}
	if writesCatalog(st) {
		if err := s.engine.ensureDefaultNamespace(ctx); err != nil {
			return Result{}, err
		}
	}
	if w, ok := st.(*parser.TiDBStmt); ok {
		switch n := w.Node.(type) {
		case *ast.InsertStmt:
			return s.insert(ctx, w, n)
		case *ast.DeleteStmt:
			return s.dmlDelete(ctx, w, n)
		case *ast.UpdateStmt:
			return s.dmlUpdate(ctx, w, n)
		case *ast.LoadDataStmt:
			return s.loadData(ctx, w, n)
		}
	}
	if x, ok := st.(*parser.NoIcebergFeatureStmt); ok {
		return Result{}, noIcebergFeature(x.Feature, x.Verb)
	}
	if x, ok := st.(*parser.CopyToStmt); ok {
		return s.copyTo(ctx, x)
	}
	if isWrite(st) {
		return s.runWrite(ctx, st)
	}
	rows, err := s.queryOne(ctx, st)
	if err != nil {
		return Result{}, err
	}
	defer rows.Close()
	for {
		b, err := rows.Next(ctx)
		if err != nil {
			return Result{}, err
		}
		if b == nil {
			return Result{}, nil
		}
		b.Release()
	}
}

// queryOne runs a statement and returns its rows.
func (s *Session) queryOne(ctx context.Context, st parser.Statement) (*Rows, error) {
	if err := checkReadOptions(ctx, st); err != nil {
		return nil, err
	}
	if writesCatalog(st) {
		if err := s.engine.ensureDefaultNamespace(ctx); err != nil {
			return nil, err
		}
	}
	switch x := st.(type) {
	case *parser.TiDBStmt:
		switch n := x.Node.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt:
			return s.selectRows(ctx, n.(ast.ResultSetNode), x.Refs)
		case *ast.InsertStmt, *ast.DeleteStmt, *ast.UpdateStmt, *ast.LoadDataStmt:
			if _, err := s.execOne(ctx, st); err != nil {
				return nil, err
			}
			return emptyRows(), nil
		case *ast.BeginStmt, *ast.CommitStmt, *ast.RollbackStmt:
			return s.txnStatement(ctx, n)
		}
		return nil, notSupported("statement %s", firstWords(x.Text))
	case *parser.ShowNamespacesStmt:
		return s.showNamespaces(ctx, x)
	case *parser.ShowTablesStmt:
		return s.showTables(ctx, x)
	case *parser.ShowPropertiesStmt:
		return s.showProperties(ctx, x)
	case *parser.ShowCreateTableStmt:
		return s.showCreateTableOrView(ctx, x)
	case *parser.ShowCreateViewStmt:
		return s.showCreateView(ctx, x.View)
	case *parser.ShowViewsStmt:
		return s.showViews(ctx, x)
	case *parser.DescribeStmt:
		return s.describeTableOrView(ctx, x)
	case *parser.ExplainStmt:
		return s.explain(ctx, x)
	case *parser.CallStmt:
		return s.call(ctx, x)
	case *parser.CopyToStmt:
		res, err := s.copyTo(ctx, x)
		if err != nil {
			return nil, err
		}
		return memRows(schemaOf(field("count", tLong, false)), [][]any{{res.RowsAffected}})
	case *parser.SetPropertyStmt:
		return s.setProperty(x)
	case *parser.ResetPropertyStmt:
		return s.resetProperty(x)
	case *parser.NoIcebergFeatureStmt:
		return nil, noIcebergFeature(x.Feature, x.Verb)
	case *parser.UseStmt:
		ok, err := s.engine.catalog.NamespaceExists(ctx, x.Namespace)
		if err != nil {
			return nil, err
		}
		// The configured namespace exists from the first write on.
		if !ok && !slices.Equal(x.Namespace, []string{s.engine.cfg.Namespace}) {
			return nil, fmt.Errorf("USE %s: %w", strings.Join(x.Namespace, "."), errNoSuchNamespace)
		}
		s.namespace = x.Namespace
		return emptyRows(), nil
	}
	if isWrite(st) {
		if _, err := s.runWrite(ctx, st); err != nil {
			return nil, err
		}
		return emptyRows(), nil
	}
	return nil, notSupported("statement %s", firstWords(st.String()))
}

// writesCatalog reports whether a statement may write, so that the
// configured namespace must exist first; reads never create it (nor the
// warehouse), so a mistyped namespace= or path leaves nothing behind.
func writesCatalog(st parser.Statement) bool {
	if w, ok := st.(*parser.TiDBStmt); ok {
		switch w.Node.(type) {
		case *ast.InsertStmt, *ast.DeleteStmt, *ast.UpdateStmt, *ast.LoadDataStmt:
			return true
		}
		return false
	}
	return isWrite(st)
}

// isWrite reports whether a statement changes the catalog or a table.
func isWrite(st parser.Statement) bool {
	switch st.(type) {
	case *parser.CreateNamespaceStmt, *parser.DropNamespaceStmt, *parser.CreateTableStmt,
		*parser.DropTableStmt, *parser.AlterTableStmt, *parser.InsertOverwriteStmt,
		*parser.MergeStmt, *parser.CallStmt,
		*parser.CreateViewStmt, *parser.DropViewStmt, *parser.AlterViewStmt:
		return true
	}
	return false
}

// checkWritable refuses writes on a read-only engine, inside a read-only
// transaction, and with per-query snapshot options.
func (s *Session) checkWritable() error {
	switch {
	case s.engine.cfg.ReadOnly:
		return ErrReadOnly
	case s.tx != nil && s.tx.opts.ReadOnly:
		return ErrTxnReadOnly
	}
	return nil
}

// checkReadOptions refuses per-query snapshot options on a statement that
// writes.
func checkReadOptions(ctx context.Context, st parser.Statement) error {
	if readOptionsFrom(ctx) == nil {
		return nil
	}
	if w, ok := st.(*parser.TiDBStmt); ok {
		switch w.Node.(type) {
		case *ast.InsertStmt, *ast.DeleteStmt, *ast.UpdateStmt, *ast.LoadDataStmt:
			return ErrReadOptionsWrite
		}
	}
	if isWrite(st) {
		return ErrReadOptionsWrite
	}
	return nil
}

// runWrite runs the extension statements that write.
func (s *Session) runWrite(ctx context.Context, st parser.Statement) (Result, error) {
	if err := s.checkWritable(); err != nil {
		return Result{}, err
	}
	switch st.(type) {
	case *parser.InsertOverwriteStmt, *parser.MergeStmt:
	default:
		if err := s.checkNotInTxn(firstWords(st.String())); err != nil {
			return Result{}, err
		}
	}
	switch x := st.(type) {
	case *parser.CreateNamespaceStmt:
		return Result{}, s.createNamespace(ctx, x)
	case *parser.DropNamespaceStmt:
		return Result{}, s.dropNamespace(ctx, x)
	case *parser.CreateTableStmt:
		return s.createTable(ctx, x)
	case *parser.DropTableStmt:
		return Result{}, s.dropTableOrView(ctx, x)
	case *parser.CreateViewStmt:
		return Result{}, s.createView(ctx, x)
	case *parser.DropViewStmt:
		return Result{}, s.dropView(ctx, x)
	case *parser.AlterViewStmt:
		return Result{}, s.alterView(ctx, x)
	case *parser.AlterTableStmt:
		if isRefAction(x.Action) {
			return s.alterRef(ctx, x)
		}
		return Result{}, s.alterTable(ctx, x)
	case *parser.InsertOverwriteStmt:
		return s.insertOverwrite(ctx, x)
	case *parser.MergeStmt:
		return s.dmlMerge(ctx, x)
	case *parser.CallStmt:
		return s.callExec(ctx, x)
	}
	return Result{}, notSupported("statement %s", firstWords(st.String()))
}

// ident resolves a table reference against the session namespace.
func (s *Session) ident(ref *parser.TableRef) (table.Identifier, error) {
	if ref.Catalog != "" && !strings.EqualFold(ref.Catalog, s.engine.catalogName()) {
		return table.Identifier{}, invalidf("unknown catalog %q", ref.Catalog)
	}
	ns := ref.Namespace
	if len(ns) == 0 {
		ns = s.namespace
	}
	return table.Identifier{Namespace: ns, Name: ref.Table}, nil
}

func (e *Engine) catalogName() string {
	if e.cfg.CatalogName == "" {
		return "default"
	}
	return e.cfg.CatalogName
}

func emptyRows() *Rows {
	return newRows(&batchIterator{schema: schemaOf()})
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 2 {
		f = f[:2]
	}
	return strings.ToUpper(strings.Join(f, " "))
}
