package sqlexec

import (
	"context"
	"errors"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// unknownTable is the error for a table reference the catalog does not
// have: the name in full, a near-miss table or view of the same namespace
// when there is one, and the catalog's error underneath.
func (s *Session) unknownTable(ctx context.Context, tr *parser.TableRef, err error) error {
	e := &planner.UnknownTableError{Name: strings.Join(tr.Parts, "."), Err: err}
	id, iderr := s.ident(tr)
	if iderr != nil {
		return e
	}
	e.Name = strings.Join(append(append([]string(nil), id.Namespace...), id.Name), ".")
	if tr.MetadataTable != "" {
		return e
	}
	var names []string
	for _, list := range []func(context.Context, []string) ([]table.Identifier, error){s.engine.catalog.ListTables, s.engine.catalog.ListViews} {
		ids, lerr := list(ctx, id.Namespace)
		if lerr != nil {
			continue
		}
		for _, x := range ids {
			names = append(names, x.Name)
		}
	}
	for _, v := range s.tempViews {
		names = append(names, v.name)
	}
	e.Suggestion = planner.Suggest(id.Name, names)
	return e
}

// schemaColumnError is a column a DDL statement names that the table
// lacks: it matches planner.ErrUnknownColumn (and so gets a caret) and
// iceberg.ErrNoSuchField.
type schemaColumnError struct{ planner.UnknownColumnError }

func (e *schemaColumnError) Unwrap() []error {
	return []error{&e.UnknownColumnError, iceberg.ErrNoSuchField}
}

// unknownSchemaColumn is the error for name missing from schema, with a
// near-miss column (nested ones by their dotted names) when there is one.
func unknownSchemaColumn(schema *iceberg.Schema, name string) error {
	var names []string
	for id := 1; id <= schema.HighestFieldID(); id++ {
		if n, ok := schema.FindColumnName(id); ok {
			names = append(names, n)
		}
	}
	return &schemaColumnError{planner.UnknownColumnError{Name: name, Suggestion: planner.Suggest(name, names)}}
}

// locate wraps an error about a name in a *PositionError pointing at the
// name in the statement's text: a TiDB statement's own, or for the
// extension layer's statements (MERGE, CALL, DDL) source, the text the
// statement was parsed from when it held that statement alone.
func locate(err error, st parser.Statement, source string) error {
	text := source
	if w, ok := st.(*parser.TiDBStmt); ok {
		text = w.Text
	}
	var pos *PositionError
	if text == "" || err == nil || errors.As(err, &pos) {
		return err
	}
	off := -1
	var (
		col *planner.UnknownColumnError
		amb *planner.AmbiguousColumnError
		tab *planner.UnknownTableError
		fn  *planner.UnknownFunctionError
	)
	switch {
	case errors.As(err, &col):
		parts := []string{col.Name}
		if col.Qualifier != "" {
			parts = []string{col.Qualifier, col.Name}
		}
		off = parser.NameOffset(text, parts, false)
	case errors.As(err, &amb):
		off = parser.NameOffset(text, []string{amb.Name}, false)
	case errors.As(err, &tab):
		parts := strings.Split(tab.Name, ".")
		for len(parts) > 0 && off < 0 {
			off = parser.NameOffset(text, parts, false)
			parts = parts[1:]
		}
	case errors.As(err, &fn):
		off = parser.NameOffset(text, []string{fn.Name}, true)
	}
	if off < 0 {
		return err
	}
	line, c := parser.LineCol(text, off)
	return &PositionError{Err: err, Line: line, Col: c, Context: parser.Caret(text, off)}
}
