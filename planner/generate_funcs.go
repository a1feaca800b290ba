package planner

// This file sorts after functions.go, whose package-level map the init
// below fills (files initialise in name order).

// A generator bound as a scalar function stands inside an expression,
// where it has no meaning.
func init() {
	for name := range generators {
		functions[name] = func(name string, _ []Expr) (Expr, error) {
			return nil, &GeneratorError{Func: name, Problem: "a generator must be a whole select item or a LATERAL VIEW, not part of an expression"}
		}
	}
	functions[generatorAsMarker] = func(string, []Expr) (Expr, error) {
		return nil, &GeneratorError{Func: "AS (...)", Problem: "a column alias list is only allowed after a generator that is a whole select item"}
	}
}
