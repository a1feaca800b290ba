package sqlexec

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/parser"
)

var errNoSuchNamespace = iceberg.ErrNoSuchNamespace

func (s *Session) createNamespace(ctx context.Context, st *parser.CreateNamespaceStmt) error {
	props := map[string]string{}
	for _, p := range st.Properties {
		props[p.Key] = p.Value
	}
	if st.Comment != "" {
		props["comment"] = st.Comment
	}
	if st.Location != "" {
		props["location"] = st.Location
	}
	if err := iceberg.CheckNamespace(st.Namespace); err != nil {
		return err
	}
	err := s.engine.catalog.CreateNamespace(ctx, st.Namespace, props)
	if st.IfNotExists && errors.Is(err, iceberg.ErrNamespaceExists) {
		return nil
	}
	return err
}

func (s *Session) dropNamespace(ctx context.Context, st *parser.DropNamespaceStmt) error {
	if st.Cascade {
		return notSupported("DROP NAMESPACE ... CASCADE: drop the tables first")
	}
	err := s.engine.catalog.DropNamespace(ctx, st.Namespace)
	if st.IfExists && errors.Is(err, iceberg.ErrNoSuchNamespace) {
		return nil
	}
	return err
}

func (s *Session) showNamespaces(ctx context.Context, st *parser.ShowNamespacesStmt) (*Rows, error) {
	list, err := s.engine.catalog.ListNamespaces(ctx, st.In)
	if err != nil {
		return nil, err
	}
	match, err := likeMatcher(st.Like)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, ns := range list {
		name := strings.Join(ns, ".")
		if match(ns[len(ns)-1]) {
			rows = append(rows, []any{name})
		}
	}
	it, err := rowsIterator(schemaOf(field("namespace", tString, false)), rows)
	if err != nil {
		return nil, err
	}
	return newRows(it), nil
}

func (s *Session) showTables(ctx context.Context, st *parser.ShowTablesStmt) (*Rows, error) {
	return s.showObjects(ctx, st.In, st.Like, s.engine.catalog.ListTables, "tableName")
}

// showObjects lists the tables or views (by list) of ns, or of the
// current namespace, and the session's temporary views, whose names
// match like, with Spark's columns: namespace, nameColumn, isTemporary.
func (s *Session) showObjects(ctx context.Context, ns []string, like string,
	list func(context.Context, []string) ([]catalog.Identifier, error), nameColumn string) (*Rows, error) {
	if ns == nil {
		ns = s.namespace
	}
	ids, err := list(ctx, ns)
	if errors.Is(err, iceberg.ErrNoSuchNamespace) && slices.Equal(ns, []string{s.engine.cfg.Namespace}) {
		// The configured namespace is created by the first write; before
		// it, it is empty.
		ids, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	match, err := likeMatcher(like)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, id := range ids {
		if match(id.Name) {
			rows = append(rows, []any{strings.Join(id.Namespace, "."), id.Name, false})
		}
	}
	// The session's temporary views follow, in every namespace's list,
	// without a namespace, as Spark lists them.
	for _, name := range s.tempViewNames() {
		if match(name) {
			rows = append(rows, []any{"", name, true})
		}
	}
	return memRows(schemaOf(field("namespace", tString, false), field(nameColumn, tString, false), field("isTemporary", tBool, false)), rows)
}

// likeMatcher implements Spark's SHOW ... LIKE patterns: '*' matches any
// characters, '|' separates alternatives, case-insensitively.
func likeMatcher(pattern string) (func(string) bool, error) {
	if pattern == "" {
		return func(string) bool { return true }, nil
	}
	alts := strings.Split(pattern, "|")
	for i, a := range alts {
		parts := strings.Split(strings.TrimSpace(a), "*")
		for j, p := range parts {
			parts[j] = regexp.QuoteMeta(p)
		}
		alts[i] = strings.Join(parts, ".*")
	}
	re, err := regexp.Compile("(?i)^(?:" + strings.Join(alts, "|") + ")$")
	if err != nil {
		return nil, invalidf("bad LIKE pattern %q", pattern)
	}
	return re.MatchString, nil
}
