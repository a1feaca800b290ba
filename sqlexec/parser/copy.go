package parser

import "strings"

// CopyToStmt is COPY (query) TO 'file' [options] or COPY table TO 'file'
// [options], as DuckDB and Postgres write it. Options come as
// [WITH] (name [value], ...) or in Postgres' older form after the file
// (CSV HEADER, FORMAT parquet, DELIMITER ','); a name without a value is
// a boolean set to true.
type CopyToStmt struct {
	Query   *Query    // nil for the table form
	Table   *TableRef // nil for the query form
	File    string
	Options []CopyOption
	Refs    RefMap
}

// CopyOption is one option, its name upper-cased; Value is "" when none
// was given.
type CopyOption struct {
	Name, Value string
	Quoted      bool // the value was a quoted string
}

func (s *CopyToStmt) TableRefs() RefMap { return s.Refs }
func (*CopyToStmt) statement()          {}

func (s *CopyToStmt) String() string {
	var b strings.Builder
	b.WriteString("COPY ")
	if s.Query != nil {
		b.WriteString("(" + s.Query.Text + ")")
	} else {
		b.WriteString(s.Table.String())
	}
	b.WriteString(" TO " + quoteString(s.File))
	if len(s.Options) > 0 {
		b.WriteString(" (")
		for i, o := range s.Options {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(o.Name)
			switch {
			case o.Quoted:
				b.WriteString(" " + quoteString(o.Value))
			case o.Value != "":
				b.WriteString(" " + o.Value)
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func parseCopy(p *cursor) (Statement, error) {
	p.i++ // COPY
	s := &CopyToStmt{}
	p.refs = RefMap{}
	if p.peek().isOp("(") {
		p.i++
		end := p.scanExpr(func(token) bool { return false })
		if end >= p.end {
			return nil, p.errorf("expected ) after the query")
		}
		q, refs, err := p.c.parseQuery(p.i, end)
		if err != nil {
			return nil, err
		}
		p.refs.merge(refs)
		s.Query = q
		p.i = end + 1
	} else {
		t, err := p.tableRef()
		if err != nil {
			return nil, err
		}
		s.Table = t
	}
	if p.isKw("FROM") {
		return nil, p.errorf("COPY ... FROM is not supported: load files with LOAD DATA INFILE or the shell's \\copy table FROM 'file'")
	}
	if err := p.expectKw("TO"); err != nil {
		return nil, err
	}
	file, err := p.str("a file name")
	if err != nil {
		return nil, err
	}
	s.File = file
	p.acceptKw("WITH")
	if p.acceptOp("(") {
		for {
			o, err := copyOption(p, true)
			if err != nil {
				return nil, err
			}
			s.Options = append(s.Options, o)
			if p.acceptOp(")") {
				break
			}
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
	}
	for !p.atEnd() {
		o, err := copyOption(p, false)
		if err != nil {
			return nil, err
		}
		s.Options = append(s.Options, o)
	}
	s.Refs = p.refs
	return s, nil
}

// copyOption reads name [value]. In the old form (not in parentheses) the
// formats CSV, JSON and PARQUET stand alone as FORMAT x, and a value is
// taken only for the options that need one.
func copyOption(p *cursor, inParens bool) (CopyOption, error) {
	t := p.peek()
	if t.kind != tkIdent {
		return CopyOption{}, p.errorf("expected a COPY option, found %s", p.describe())
	}
	p.i++
	o := CopyOption{Name: strings.ToUpper(t.val)}
	if !inParens {
		switch o.Name {
		case "CSV", "JSON", "PARQUET":
			return CopyOption{Name: "FORMAT", Value: strings.ToLower(o.Name)}, nil
		case "HEADER", "OVERWRITE":
			return o, nil
		}
	}
	switch v := p.peek(); {
	case v.kind == tkString:
		o.Value, o.Quoted = v.val, true
		p.i++
	case v.kind == tkIdent || v.kind == tkNumber:
		o.Value = v.val
		p.i++
	}
	return o, nil
}
