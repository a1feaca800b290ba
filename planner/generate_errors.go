package planner

import "fmt"

// GeneratorError reports a misused table-generating function (explode,
// posexplode, inline and their _outer forms, stack, json_tuple): a wrong
// argument, a wrong number of column aliases, or a generator where none
// may stand. It
// wraps ErrInvalidQuery, or ErrType for a wrong argument type.
type GeneratorError struct {
	Func    string
	Problem string
	typ     bool
}

func (e *GeneratorError) Error() string {
	return fmt.Sprintf("generator %s: %s", e.Func, e.Problem)
}

func (e *GeneratorError) Unwrap() error {
	if e.typ {
		return ErrType
	}
	return ErrInvalidQuery
}
