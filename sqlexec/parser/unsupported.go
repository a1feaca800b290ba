package parser

import "strings"

// NoIcebergFeatureStmt is a statement for a feature Iceberg tables do not
// have (indexes, triggers): it parses, so that the session can refuse it
// by name instead of with a syntax error.
type NoIcebergFeatureStmt struct {
	noRefs
	Feature string // "indexes", "triggers"
	Verb    string // "CREATE INDEX", "DROP TRIGGER", ...
	Text    string
}

func (s *NoIcebergFeatureStmt) String() string { return s.Text }

func (*NoIcebergFeatureStmt) statement() {}

// noIcebergFeature picks the statements of features Iceberg lacks:
// CREATE [UNIQUE] INDEX, DROP INDEX, REINDEX, CREATE [TEMP] TRIGGER and
// DROP TRIGGER, and SQLite's INSERT OR REPLACE / IGNORE. kw(k) is the k-th keyword of the statement, upper case.
func noIcebergFeature(kw func(int) string) func(*cursor) (Statement, error) {
	refuse := func(feature, verb string) func(*cursor) (Statement, error) {
		return func(p *cursor) (Statement, error) {
			from := p.i
			p.i = p.end
			return &NoIcebergFeatureStmt{Feature: feature, Verb: verb, Text: p.c.text(from, p.end)}, nil
		}
	}
	switch kw(0) {
	case "CREATE":
		k := 1
		if w := kw(1); w == "UNIQUE" || w == "TEMP" || w == "TEMPORARY" {
			k = 2
		}
		switch kw(k) {
		case "INDEX":
			return refuse("indexes", "CREATE INDEX")
		case "TRIGGER":
			return refuse("triggers", "CREATE TRIGGER")
		}
	case "DROP":
		switch kw(1) {
		case "INDEX":
			return refuse("indexes", "DROP INDEX")
		case "TRIGGER":
			return refuse("triggers", "DROP TRIGGER")
		}
	case "REINDEX":
		return refuse("indexes", "REINDEX")
	case "INSERT":
		if kw(1) == "OR" {
			switch kw(2) {
			case "REPLACE":
				return refuse("enforced keys to replace rows by", "INSERT OR REPLACE; use MERGE INTO")
			case "IGNORE", "ABORT", "FAIL", "ROLLBACK":
				return refuse("enforced constraints to resolve conflicts of", "INSERT OR "+kw(2))
			}
		}
	}
	return nil
}

// triggerBodyOpen reports whether tokens [from, to) are a CREATE TRIGGER
// whose BEGIN ... END body is not closed yet: the semicolons inside the
// body do not end the statement.
func (c *parseCtx) triggerBodyOpen(from, to int) bool {
	kw := func(i int) string {
		if i < to && c.toks[i].kind == tkIdent {
			return strings.ToUpper(c.toks[i].val)
		}
		return ""
	}
	k := from + 1
	if w := kw(k); w == "TEMP" || w == "TEMPORARY" {
		k++
	}
	if kw(from) != "CREATE" || kw(k) != "TRIGGER" {
		return false
	}
	depth := 0
	for i := k; i < to; i++ {
		switch kw(i) {
		case "BEGIN", "CASE":
			depth++
		case "END":
			depth--
		}
	}
	return depth > 0
}
