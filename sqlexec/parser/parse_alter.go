package parser

import (
	"math"
	"strconv"
	"strings"
)

func i64toa(n int64) string { return strconv.FormatInt(n, 10) }

func parseAlterTable(p *cursor) (Statement, error) {
	p.i += 2 // ALTER TABLE
	t, err := p.tableRef()
	if err != nil {
		return nil, err
	}
	a, err := p.alterAction()
	if err != nil {
		return nil, err
	}
	return &AlterTableStmt{Table: t, Action: a}, nil
}

func (p *cursor) alterAction() (AlterAction, error) {
	switch {
	case p.acceptKw("SET", "TBLPROPERTIES"), p.acceptKw("SET", "PROPERTIES"):
		props, err := p.properties()
		return SetPropertiesAction{Properties: props}, err
	case p.acceptKw("UNSET", "TBLPROPERTIES"), p.acceptKw("UNSET", "PROPERTIES"):
		a := UnsetPropertiesAction{IfExists: p.acceptKw("IF", "EXISTS")}
		var err error
		a.Keys, err = p.propertyKeyList()
		return a, err
	case p.acceptKw("ADD", "PARTITION", "FIELD"):
		t, err := p.namedPartitionTerm()
		return AddPartitionFieldAction{Term: t}, err
	case p.acceptKw("DROP", "PARTITION", "FIELD"):
		t, err := p.partitionTerm()
		return DropPartitionFieldAction{Term: t}, err
	case p.acceptKw("REPLACE", "PARTITION", "FIELD"):
		from, err := p.partitionTerm()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("WITH"); err != nil {
			return nil, err
		}
		to, err := p.namedPartitionTerm()
		return ReplacePartitionFieldAction{From: from, To: to}, err
	case p.acceptKw("ADD"):
		if p.oneOf("COLUMNS", "COLUMN") == "" {
			return nil, p.errorf("expected COLUMN, COLUMNS or PARTITION FIELD after ADD, found %s", p.describe())
		}
		return p.addColumns()
	case p.isKw("DROP", "IDENTIFIER", "FIELDS"), p.isKw("SET", "IDENTIFIER", "FIELDS"):
		a := IdentifierFieldsAction{Drop: p.isKw("DROP")}
		p.i += 3
		cols, err := p.paths(false)
		a.Columns = cols
		return a, err
	case p.acceptKw("DROP", "COLUMNS"), p.acceptKw("DROP", "COLUMN"):
		a := DropColumnsAction{IfExists: p.acceptKw("IF", "EXISTS")}
		var err error
		a.Columns, err = p.paths(true)
		return a, err
	case p.acceptKw("RENAME", "COLUMN"):
		from, err := p.name("a column name")
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("TO"); err != nil {
			return nil, err
		}
		to, err := p.ident("the new column name")
		return RenameColumnAction{From: strings.Join(from, "."), To: to}, err
	case p.acceptKw("RENAME", "TO"):
		t, err := p.tableRef()
		return RenameTableAction{To: t}, err
	case p.acceptKw("ALTER", "COLUMN"), p.acceptKw("CHANGE", "COLUMN"):
		return p.alterColumn()
	case p.isKw("CREATE"), p.isKw("REPLACE"):
		return p.createRef()
	case p.acceptKw("DROP"):
		w := p.oneOf("BRANCH", "TAG")
		if w == "" {
			return nil, p.errorf("expected COLUMN, PARTITION FIELD, BRANCH or TAG after DROP, found %s", p.describe())
		}
		a := DropRefAction{Tag: w == "TAG", IfExists: p.acceptKw("IF", "EXISTS")}
		var err error
		a.Name, err = p.ident("a branch or tag name")
		return a, err
	case p.acceptKw("WRITE"):
		return p.writeOrder()
	}
	return nil, p.errorf("expected an ALTER TABLE action (SET TBLPROPERTIES, ADD COLUMN, ...), found %s", p.describe())
}

func (p *cursor) namedPartitionTerm() (PartitionTerm, error) {
	t, err := p.partitionTerm()
	if err != nil {
		return t, err
	}
	if p.acceptKw("AS") {
		t.Name, err = p.ident("a partition field name")
	}
	return t, err
}

// paths reads a comma list of dotted column names, in parentheses when
// parens is true and one comes next.
func (p *cursor) paths(parens bool) ([]string, error) {
	paren := parens && p.acceptOp("(")
	var out []string
	for {
		path, err := p.name("a column name")
		if err != nil {
			return nil, err
		}
		out = append(out, strings.Join(path, "."))
		if !p.acceptOp(",") {
			break
		}
	}
	if paren {
		return out, p.expectOp(")")
	}
	return out, nil
}

func (p *cursor) addColumns() (AlterAction, error) {
	paren := p.acceptOp("(")
	var a AddColumnsAction
	for {
		c, err := p.columnDef(true)
		if err != nil {
			return nil, err
		}
		a.Columns = append(a.Columns, c)
		if !p.acceptOp(",") {
			break
		}
	}
	if paren {
		return a, p.expectOp(")")
	}
	return a, nil
}

func (p *cursor) alterColumn() (AlterAction, error) {
	path, err := p.name("a column name")
	if err != nil {
		return nil, err
	}
	a := AlterColumnAction{Column: strings.Join(path, ".")}
	switch {
	case p.acceptKw("TYPE"), p.acceptKw("SET", "DATA", "TYPE"):
		a.Type, err = p.typ()
	case p.acceptKw("DROP", "NOT", "NULL"):
		a.DropNotNull = true
	case p.acceptKw("SET", "NOT", "NULL"):
		a.SetNotNull = true
	case p.acceptKw("COMMENT"):
		var c string
		c, err = p.str("a comment")
		a.Comment = &c
	case p.acceptKw("FIRST"):
		a.First = true
	case p.acceptKw("AFTER"):
		var after []string
		after, err = p.name("a column name")
		a.After = strings.Join(after, ".")
	default:
		return nil, p.errorf("expected TYPE, DROP NOT NULL, SET NOT NULL, COMMENT, FIRST or AFTER, found %s", p.describe())
	}
	return a, err
}

// createRef reads CREATE [OR REPLACE] | REPLACE BRANCH|TAG [IF NOT EXISTS]
// name [AS OF VERSION n] [RETAIN n unit] [WITH SNAPSHOT RETENTION [n
// SNAPSHOTS] [n unit]].
func (p *cursor) createRef() (AlterAction, error) {
	var a CreateRefAction
	if p.acceptKw("CREATE") {
		a.Create = true
		a.Replace = p.acceptKw("OR", "REPLACE")
	} else {
		p.next()
		a.Replace = true
	}
	w := p.oneOf("BRANCH", "TAG")
	if w == "" {
		return nil, p.errorf("expected BRANCH or TAG, found %s", p.describe())
	}
	a.Tag = w == "TAG"
	a.IfNotExists = p.acceptKw("IF", "NOT", "EXISTS")
	var err error
	if a.Name, err = p.ident("a branch or tag name"); err != nil {
		return nil, err
	}
	if p.acceptKw("AS", "OF", "VERSION") {
		v, err := p.integer("a snapshot id")
		if err != nil {
			return nil, err
		}
		a.AsOfVersion = &v
	}
	if p.acceptKw("RETAIN") {
		if a.RetainMs, err = p.duration(); err != nil {
			return nil, err
		}
	}
	if p.acceptKw("WITH", "SNAPSHOT", "RETENTION") {
		if a.Tag {
			return nil, p.errorf("a tag has no snapshot retention")
		}
		for p.peek().kind == tkNumber {
			if p.peekAt(1).isKw("SNAPSHOTS") {
				if a.MinSnapshotsToKeep, err = p.smallInt("snapshots to keep", 1); err != nil {
					return nil, err
				}
				p.next()
			} else if a.MaxSnapshotAgeMs, err = p.duration(); err != nil {
				return nil, err
			}
		}
		if a.MinSnapshotsToKeep == 0 && a.MaxSnapshotAgeMs == 0 {
			return nil, p.errorf("expected n SNAPSHOTS or n DAYS|HOURS|MINUTES, found %s", p.describe())
		}
	}
	return a, nil
}

// duration reads n DAYS|HOURS|MINUTES as milliseconds.
func (p *cursor) duration() (int64, error) {
	n, err := p.integer("a duration")
	if err != nil {
		return 0, err
	}
	unit := strings.TrimSuffix(strings.ToUpper(p.peek().val), "S") + "S"
	for _, u := range durationUnits {
		if p.peek().kind == tkIdent && unit == u.name {
			p.next()
			if n <= 0 || n > math.MaxInt64/u.ms {
				return 0, p.errorf("duration out of range")
			}
			return n * u.ms, nil
		}
	}
	return 0, p.errorf("expected DAYS, HOURS or MINUTES, found %s", p.describe())
}

// writeOrder reads the rest of a WRITE action.
func (p *cursor) writeOrder() (AlterAction, error) {
	var a WriteOrderAction
	if p.acceptKw("UNORDERED") {
		a.Unordered = true
		return a, nil
	}
	if p.acceptKw("DISTRIBUTED", "BY", "PARTITION") {
		a.DistributedByPartition = true
		if p.atEnd() {
			return a, nil
		}
	}
	a.Locally = p.acceptKw("LOCALLY")
	if err := p.expectKw("ORDERED", "BY"); err != nil {
		return nil, err
	}
	for {
		t, err := p.partitionTerm()
		if err != nil {
			return nil, err
		}
		st := SortTerm{Term: t}
		st.Desc = p.oneOf("ASC", "DESC") == "DESC"
		st.NullsFirst = !st.Desc
		if p.acceptKw("NULLS") {
			switch p.oneOf("FIRST", "LAST") {
			case "FIRST":
				st.NullsFirst = true
			case "LAST":
				st.NullsFirst = false
			default:
				return nil, p.errorf("expected FIRST or LAST, found %s", p.describe())
			}
		}
		a.Fields = append(a.Fields, st)
		if !p.acceptOp(",") {
			break
		}
	}
	return a, nil
}
