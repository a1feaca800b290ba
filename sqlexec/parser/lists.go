package parser

// commaList parses one or more items separated by commas, calling item for
// each.
func (p *cursor) commaList(item func() error) error {
	for {
		if err := item(); err != nil {
			return err
		}
		if !p.acceptOp(",") {
			return nil
		}
	}
}

// propertyKeyList parses UNSET TBLPROPERTIES' parenthesized key list.
func (p *cursor) propertyKeyList() ([]string, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	var keys []string
	err := p.commaList(func() error {
		k, err := p.propertyKey()
		keys = append(keys, k)
		return err
	})
	if err != nil {
		return nil, err
	}
	return keys, p.expectOp(")")
}

// showFilter parses the [IN|FROM ns] [[LIKE] 'pattern'] tail of SHOW
// TABLES, VIEWS and NAMESPACES.
func (p *cursor) showFilter() (in []string, like string, err error) {
	if p.oneOf("IN", "FROM") != "" {
		if in, err = p.name("a namespace name"); err != nil {
			return nil, "", err
		}
	}
	if p.acceptKw("LIKE") || p.peek().kind == tkString {
		if like, err = p.str("a pattern"); err != nil {
			return nil, "", err
		}
	}
	return in, like, nil
}

// showFilterSQL prints what showFilter parses, after the statement's
// leading words.
func showFilterSQL(head string, in []string, like string) string {
	if in != nil {
		head += " IN " + QuoteName(in)
	}
	if like != "" {
		head += " LIKE " + QuoteString(like)
	}
	return head
}
