package sqlexec

import (
	"fmt"

	"github.com/icesql/icesql/sqlexec/parser"
)

// NamedArg is an argument given by name (database/sql's sql.Named), for a
// statement written with :name or @name placeholders.
type NamedArg struct {
	Name  string
	Value any
}

// placeholders are how a prepared script wrote its placeholders: the
// parser turns $n, :name and @name into ?, and resolveArgs puts the
// arguments in the order of those ?.
type placeholders struct {
	style parser.PlaceholderStyle
	list  []parser.Placeholder // in written order; nil for ?
	names []string             // distinct names in order of first use
	max   int                  // the highest $n
}

func newPlaceholders(style parser.PlaceholderStyle, list []parser.Placeholder) placeholders {
	ph := placeholders{style: style, list: list}
	seen := map[string]bool{}
	for _, p := range list {
		ph.max = max(ph.max, p.Number)
		if p.Name != "" && !seen[p.Name] {
			seen[p.Name] = true
			ph.names = append(ph.names, p.Name)
		}
	}
	return ph
}

// numInput is what database/sql checks the argument count against.
func (ph placeholders) numInput(questionMarks int) int {
	switch ph.style {
	case parser.Numbered:
		return ph.max
	case parser.Named:
		return len(ph.names)
	}
	return questionMarks
}

// resolveArgs lists the arguments of each ? in order.
func (ph placeholders) resolveArgs(args []any) ([]any, error) {
	named := 0
	var firstName string
	for _, a := range args {
		if na, ok := a.(NamedArg); ok {
			if named == 0 {
				firstName = na.Name
			}
			named++
		}
	}
	switch ph.style {
	case parser.Numbered:
		if named > 0 {
			return nil, &ParamError{Name: firstName, Msg: "the statement numbers its placeholders ($1, $2, ...): pass the arguments in order, without names"}
		}
		if len(args) != ph.max {
			return nil, &ParamError{Msg: fmt.Sprintf("statement's placeholders run to $%d, got %d arguments", ph.max, len(args))}
		}
		out := make([]any, len(ph.list))
		for i, p := range ph.list {
			out[i] = args[p.Number-1]
		}
		return out, nil
	case parser.Named:
		byName := map[string]any{}
		switch {
		case named == 0:
			if len(args) != len(ph.names) {
				return nil, &ParamError{Msg: fmt.Sprintf("statement has %d named placeholders, got %d arguments", len(ph.names), len(args))}
			}
			for i, n := range ph.names {
				byName[n] = args[i]
			}
		case named != len(args):
			return nil, &ParamError{Msg: "arguments mix names and positions; name all of them (sql.Named) or none"}
		default:
			for _, a := range args {
				na := a.(NamedArg)
				if _, dup := byName[na.Name]; dup {
					return nil, &ParamError{Name: na.Name, Msg: "given twice"}
				}
				byName[na.Name] = na.Value
			}
			for _, n := range ph.names {
				if _, ok := byName[n]; !ok {
					return nil, &ParamError{Name: n, Msg: "no argument of that name"}
				}
			}
			if len(byName) != len(ph.names) {
				for _, a := range args {
					if na := a.(NamedArg); !ph.hasName(na.Name) {
						return nil, &ParamError{Name: na.Name, Msg: "the statement has no placeholder of that name"}
					}
				}
			}
		}
		out := make([]any, len(ph.list))
		for i, p := range ph.list {
			out[i] = byName[p.Name]
		}
		return out, nil
	}
	if named > 0 {
		return nil, &ParamError{Name: firstName, Msg: "the statement has ? placeholders, which take arguments by position; write :" + firstName + " (or @" + firstName + ") in the statement to pass it by name"}
	}
	return args, nil
}

func (ph placeholders) hasName(n string) bool {
	for _, x := range ph.names {
		if x == n {
			return true
		}
	}
	return false
}

// argLabel makes a ParamError about the e.Index-th ? name the user's
// argument instead: its $n or its :name.
func (ph placeholders) argLabel(e *ParamError) {
	if e.Index <= 0 || e.Index > len(ph.list) {
		return
	}
	p := ph.list[e.Index-1]
	if p.Number > 0 {
		e.Index = p.Number
	} else if p.Name != "" {
		e.Index, e.Name = 0, p.Name
	}
}
