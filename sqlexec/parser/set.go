package parser

import "strings"

// SetPropertyStmt is Spark's session property statement: SET key = value
// sets, SET key shows one, SET alone lists them all. Keys are dotted
// names (spark.wap.id) or quoted strings, which keeps MySQL's SET forms
// (SET @x = 1, SET NAMES ...) apart.
type SetPropertyStmt struct {
	noRefs
	Key      string // "" lists every property
	Value    string
	HasValue bool
}

// ResetPropertyStmt is RESET [key]: unset one session property, or all.
type ResetPropertyStmt struct {
	noRefs
	Key string
}

func (*SetPropertyStmt) statement()   {}
func (*ResetPropertyStmt) statement() {}

func (s *SetPropertyStmt) String() string {
	switch {
	case s.Key == "":
		return "SET"
	case s.HasValue:
		return "SET " + QuoteString(s.Key) + " = " + QuoteString(s.Value)
	}
	return "SET " + QuoteString(s.Key)
}

func (s *ResetPropertyStmt) String() string {
	if s.Key == "" {
		return "RESET"
	}
	return "RESET " + QuoteString(s.Key)
}

// isPropertySet reports whether tokens [from, to) are a SET of a session
// property rather than one of MySQL's SET statements.
func (c *parseCtx) isPropertySet(from, to int) bool {
	if to-from == 1 {
		return true // SET alone
	}
	t := c.toks[from+1]
	if t.kind == tkString {
		return true
	}
	return t.kind == tkIdent && from+2 < to && c.toks[from+2].isOp(".")
}

func parseSet(p *cursor) (Statement, error) {
	p.next() // SET
	if p.atEnd() {
		return &SetPropertyStmt{}, nil
	}
	key, err := p.propertyKey()
	if err != nil {
		return nil, err
	}
	st := &SetPropertyStmt{Key: key}
	if p.atEnd() {
		return st, nil
	}
	if err := p.expectOp("="); err != nil {
		return nil, err
	}
	st.HasValue = true
	if t := p.peek(); t.kind == tkString && p.i+1 == p.end {
		st.Value = t.val
		p.next()
		return st, nil
	}
	// As Spark: the value is the rest of the statement, as written.
	st.Value = strings.TrimSpace(p.c.text(p.i, p.end))
	p.i = p.end
	return st, nil
}

func parseReset(p *cursor) (Statement, error) {
	p.next() // RESET
	if p.atEnd() {
		return &ResetPropertyStmt{}, nil
	}
	key, err := p.propertyKey()
	if err != nil {
		return nil, err
	}
	return &ResetPropertyStmt{Key: key}, nil
}
