package planner

// children returns an expression's direct sub-expressions.
func children(e Expr) []Expr {
	switch x := e.(type) {
	case *Compare:
		return []Expr{x.L, x.R}
	case *Arith:
		return []Expr{x.L, x.R}
	case *DecimalArith:
		return []Expr{x.L, x.R}
	case *Logic:
		return []Expr{x.L, x.R}
	case *Not:
		return []Expr{x.E}
	case *IsNull:
		return []Expr{x.E}
	case *Cast:
		return []Expr{x.E}
	case *Call:
		return x.Args
	case *Case:
		out := append(append([]Expr{}, x.Whens...), x.Thens...)
		if x.Else != nil {
			out = append(out, x.Else)
		}
		return out
	case *InList:
		return append([]Expr{x.E}, x.List...)
	case *InSubquery:
		return append([]Expr{x.E}, x.OuterCols...)
	case *Exists:
		return x.OuterCols
	case *ScalarSubquery:
		return x.OuterCols
	}
	return nil
}

// withChildren rebuilds e with new children (same order as children(e)).
func withChildren(e Expr, c []Expr) Expr {
	switch x := e.(type) {
	case *Compare:
		return &Compare{Op: x.Op, L: c[0], R: c[1]}
	case *Arith:
		return &Arith{Op: x.Op, L: c[0], R: c[1], Type: x.Type}
	case *DecimalArith:
		return &DecimalArith{Op: x.Op, L: c[0], R: c[1], Type: x.Type}
	case *Logic:
		return &Logic{Or: x.Or, L: c[0], R: c[1]}
	case *Not:
		return &Not{E: c[0]}
	case *IsNull:
		return &IsNull{E: c[0], Negate: x.Negate}
	case *Cast:
		return &Cast{E: c[0], To: x.To, Column: x.Column}
	case *Call:
		n := *x
		n.Args = c
		return &n
	case *Case:
		k := len(x.Whens)
		n := &Case{Whens: c[:k], Thens: c[k : 2*k], Type: x.Type}
		if x.Else != nil {
			n.Else = c[2*k]
		}
		return n
	case *InList:
		return &InList{E: c[0], List: c[1:], Negate: x.Negate}
	case *InSubquery:
		n := *x
		n.E, n.OuterCols = c[0], c[1:]
		return &n
	case *Exists:
		n := *x
		n.OuterCols = c
		return &n
	case *ScalarSubquery:
		n := *x
		n.OuterCols = c
		return &n
	}
	return e
}

// transformExpr rewrites e bottom-up with f.
func transformExpr(e Expr, f func(Expr) (Expr, error)) (Expr, error) {
	cs := children(e)
	if len(cs) > 0 {
		nc := make([]Expr, len(cs))
		for i, c := range cs {
			x, err := transformExpr(c, f)
			if err != nil {
				return nil, err
			}
			nc[i] = x
		}
		e = withChildren(e, nc)
	}
	return f(e)
}

// walkExpr visits e and its descendants.
func walkExpr(e Expr, f func(Expr)) {
	f(e)
	for _, c := range children(e) {
		walkExpr(c, f)
	}
}

// columnsUsed returns the input indexes e reads.
func columnsUsed(e Expr, into map[int]bool) {
	walkExpr(e, func(x Expr) {
		if c, ok := x.(*ColumnRef); ok {
			into[c.Index] = true
		}
	})
}

// remapColumns renumbers column references by pos (old index -> new).
func remapColumns(e Expr, pos map[int]int) Expr {
	out, _ := transformExpr(e, func(x Expr) (Expr, error) {
		if c, ok := x.(*ColumnRef); ok {
			return &ColumnRef{Index: pos[c.Index], Name: c.Name, Type: c.Type}, nil
		}
		return x, nil
	})
	return out
}

// shiftColumns adds delta to every column reference.
func shiftColumns(e Expr, delta int) Expr {
	out, _ := transformExpr(e, func(x Expr) (Expr, error) {
		if c, ok := x.(*ColumnRef); ok {
			return &ColumnRef{Index: c.Index + delta, Name: c.Name, Type: c.Type}, nil
		}
		return x, nil
	})
	return out
}

// planExprs lists the expressions held directly by a plan node.
func planExprs(p Plan) []Expr {
	switch n := p.(type) {
	case *Filter:
		return []Expr{n.Pred}
	case *Project:
		return n.Exprs
	case *Aggregate:
		out := append([]Expr{}, n.Groups...)
		for _, a := range n.Aggs {
			if a.Arg != nil {
				out = append(out, a.Arg)
			}
		}
		return out
	case *Sort:
		out := make([]Expr, len(n.Keys))
		for i, k := range n.Keys {
			out[i] = k.Expr
		}
		return out
	case *Join:
		out := append(append([]Expr{}, n.LeftKeys...), n.RightKeys...)
		if n.Residual != nil {
			out = append(out, n.Residual)
		}
		return out
	case *Scan:
		return n.Filters
	case *Window:
		return windowExprs(n)
	case *Generate:
		return []Expr{n.Arg}
	case *Values:
		var out []Expr
		for _, r := range n.Rows {
			out = append(out, r...)
		}
		return out
	}
	return nil
}

// splitConjuncts flattens nested ANDs.
func splitConjuncts(e Expr) []Expr {
	if l, ok := e.(*Logic); ok && !l.Or {
		return append(splitConjuncts(l.L), splitConjuncts(l.R)...)
	}
	return []Expr{e}
}

// conjoin ANDs predicates together (nil for none).
func conjoin(es []Expr) Expr {
	var out Expr
	for _, e := range es {
		if out == nil {
			out = e
		} else {
			out = &Logic{L: out, R: e}
		}
	}
	return out
}
