package planner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// ViewResolver is optionally implemented by Catalogs that hold views. The
// binder asks it about a name only when ResolveTable found no table.
type ViewResolver interface {
	// ResolveView returns the view ref names; (nil, nil) when there is no
	// such view.
	ResolveView(ctx context.Context, ref TableRef) (*View, error)
}

// View is a stored query the binder expands where its name is read, as a
// subquery with the view's own name resolution.
type View struct {
	// Name is the qualified view name, for errors and recursion checks.
	Name string
	// Query is the view's parsed SQL.
	Query ast.ResultSetNode
	// Catalog resolves the tables and views the query reads (relative to
	// the view's default namespace).
	Catalog Catalog
	// Options bind the query (its TableExtra knows the query's names).
	Options BindOptions
	// Columns are the view's stored column names; the query's output is
	// renamed to them, by position.
	Columns []string
	// Adapt checks the type the query now gives column i against the
	// view's stored schema and returns the type the view outputs (the
	// query's value is cast to it); an error means the view no longer fits
	// its tables.
	Adapt func(i int, got arrow.DataType) (arrow.DataType, error)
}

// ErrInvalidView is wrapped by *ViewError: a view's query no longer binds
// or no longer matches the view's schema, or views refer to themselves.
var ErrInvalidView = errors.New("invalid view")

// ViewError names the view whose expansion failed; Unwrap gives both
// ErrInvalidView and the cause.
type ViewError struct {
	View string
	Err  error
}

func (e *ViewError) Error() string   { return fmt.Sprintf("view %s: %v", e.View, e.Err) }
func (e *ViewError) Unwrap() []error { return []error{ErrInvalidView, e.Err} }

// maxViewDepth bounds views over views (a cycle is caught before it).
const maxViewDepth = 64

type viewChainKey struct{}

// viewChain is the views being expanded around the current binding.
func viewChain(ctx context.Context) []string {
	c, _ := ctx.Value(viewChainKey{}).([]string)
	return c
}

// WithViewBeingDefined marks ctx as binding the query of view name, so a
// query that reads the view itself (through other views too) fails as
// recursive instead of storing a view that can never be expanded.
func WithViewBeingDefined(ctx context.Context, name string) context.Context {
	chain := viewChain(ctx)
	return context.WithValue(ctx, viewChainKey{}, append(chain[:len(chain):len(chain)], name))
}

// resolveView asks the catalog for a view named ref; nil when there is
// none (or the catalog knows no views).
func (b *binder) resolveView(ref TableRef) (*View, error) {
	vr, ok := b.cat.(ViewResolver)
	if !ok {
		return nil, nil
	}
	return vr.ResolveView(b.ctx, ref)
}

// bindView binds a view's query in its own binder (no outer CTEs or
// columns are visible to it) and renames its output to the view's columns
// under alias.
func (b *binder) bindView(v *View, alias string) (Plan, error) {
	chain := viewChain(b.ctx)
	for _, name := range chain {
		if strings.EqualFold(name, v.Name) {
			return nil, &ViewError{View: v.Name, Err: fmt.Errorf("recursive view: %s", strings.Join(append(chain, v.Name), " -> "))}
		}
	}
	if len(chain) >= maxViewDepth {
		return nil, &ViewError{View: v.Name, Err: fmt.Errorf("views nested more than %d deep", maxViewDepth)}
	}
	child := &binder{ctx: WithViewBeingDefined(b.ctx, v.Name), cat: v.Catalog, opts: v.Options}
	p, err := child.bindResultSet(v.Query, nil, nil)
	if err != nil {
		var ve *ViewError
		if errors.As(err, &ve) {
			return nil, err // already names the innermost view
		}
		return nil, &ViewError{View: v.Name, Err: err}
	}
	cols := p.Columns()
	if len(cols) != len(v.Columns) {
		return nil, &ViewError{View: v.Name, Err: fmt.Errorf("its query now returns %d columns, the view has %d (recreate the view)", len(cols), len(v.Columns))}
	}
	exprs := make([]Expr, len(cols))
	out := make([]Column, len(cols))
	for i, c := range cols {
		t := c.Type
		if v.Adapt != nil {
			if t, err = v.Adapt(i, c.Type); err != nil {
				return nil, &ViewError{View: v.Name, Err: err}
			}
		}
		exprs[i] = coerce(&ColumnRef{Index: i, Name: c.Name, Type: c.Type}, t)
		out[i] = Column{Qualifier: alias, Name: v.Columns[i], Type: t, Nullable: true}
	}
	return &Project{Input: p, Exprs: exprs, Cols: out}, nil
}
