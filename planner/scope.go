package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// scope is the set of columns names resolve against, with a link to the
// enclosing query's scope for correlated subqueries.
type scope struct {
	cols []Column
	// outer is the enclosing query's scope; sub collects the outer values
	// this (sub)query reads.
	outer *scope
	sub   *subqueryBase
	agg   *aggCtx
	// win collects window calls; nil where they are not allowed.
	win *winCtx
	// aliases are the select list HAVING may name (as Spark lets it).
	aliases []selectItem
}

// havingAlias finds the select item an unqualified name in HAVING
// denotes: one named so, when no input column is.
func (sc *scope) havingAlias(c *ast.ColumnNameExpr) (ast.ExprNode, bool) {
	if len(sc.aliases) == 0 || c.Name.Table.O != "" {
		return nil, false
	}
	if _, err := sc.agg.input.resolve("", c.Name.Name.O); err == nil {
		return nil, false
	}
	for _, it := range sc.aliases {
		if strings.EqualFold(it.name, c.Name.Name.O) {
			return it.ast, true
		}
	}
	return nil, false
}

func (sc *scope) resolve(qual, name string) (Expr, error) {
	var hits []int
	for i, c := range sc.cols {
		if strings.EqualFold(c.Name, name) && (qual == "" || strings.EqualFold(c.Qualifier, qual)) {
			hits = append(hits, i)
		}
	}
	switch len(hits) {
	case 1:
		c := sc.cols[hits[0]]
		return &ColumnRef{Index: hits[0], Name: c.Name, Type: c.Type}, nil
	case 0:
		if sc.outer != nil && sc.sub != nil {
			e, err := sc.outer.resolveOuter(qual, name)
			if uce, ok := err.(*UnknownColumnError); ok {
				uce.Suggestion = sc.suggest(qual, name)
			}
			if err != nil {
				return nil, err
			}
			return sc.sub.outerRef(e), nil
		}
		return nil, &UnknownColumnError{Qualifier: qual, Name: name, Suggestion: sc.suggest(qual, name)}
	}
	cands := make([]string, len(hits))
	for i, h := range hits {
		cands[i] = sc.cols[h].Qualifier + "." + sc.cols[h].Name
	}
	return nil, &AmbiguousColumnError{Name: name, Candidates: cands}
}

// resolveOuter resolves a name for an inner query. In an aggregating
// scope (HAVING, aggregate select lists) only grouped columns are visible.
func (sc *scope) resolveOuter(qual, name string) (Expr, error) {
	if sc.agg != nil {
		e, ok, err := sc.agg.lookup(nil, &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(qual), Name: ast.NewCIStr(name)}})
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, invalid("column %s must appear in GROUP BY to be used in a subquery", name)
		}
		return e, nil
	}
	return sc.resolve(qual, name)
}

// outerRef registers e (an expression over the outer input) as a value the
// subquery reads and returns the reference to it.
func (s *subqueryBase) outerRef(e Expr) Expr {
	if s.Correlated == nil {
		s.Correlated = &OuterRow{}
	}
	key := e.String()
	for i, o := range s.OuterCols {
		if o.String() == key {
			return &OuterRef{Slot: s.Correlated, Index: i, Name: key, Type: e.DataType()}
		}
	}
	s.OuterCols = append(s.OuterCols, e)
	return &OuterRef{Slot: s.Correlated, Index: len(s.OuterCols) - 1, Name: key, Type: e.DataType()}
}

// suggest finds a near-miss for an unknown column among the names this
// scope and its enclosing ones can see.
func (sc *scope) suggest(qual, name string) string {
	var names []string
	for s := sc; s != nil; s = s.outer {
		for _, c := range s.cols {
			if qual == "" || strings.EqualFold(c.Qualifier, qual) {
				names = append(names, c.Name)
			}
		}
	}
	return Suggest(name, names)
}
