package sqlexec

import (
	"context"

	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/parser"
)

// stmtView is one autocommit statement's view of the catalog: every table
// the statement reads resolves to the pointer of one catalog read, so a
// statement over several tables never sees part of a multi-table commit
// (a transaction's view is pinned by table.Txn the same way).
//
// A statement naming one table reads only that pointer. One naming
// several (or reaching further tables through a view) reads every table
// pointer in one read at its first table access (table.AllPointers); a
// table created after that read is read on its own.
type stmtView struct {
	many   bool // the statement names two or more tables
	pinned bool // locs holds one read of every pointer
	locs   map[string]string
}

// newStmtView starts the view of statement st.
func (s *Session) newStmtView(st parser.Statement) *stmtView {
	v := &stmtView{locs: map[string]string{}}
	names := map[string]bool{}
	for _, ref := range st.TableRefs() {
		if id, err := s.ident(ref); err == nil {
			names[id.String()] = true
		}
	}
	v.many = len(names) > 1
	return v
}

// pointer is the metadata location the session reads id at: the open
// transaction's is table.Txn's business, this is autocommit's.
func (s *Session) pointer(ctx context.Context, id table.Identifier) (string, error) {
	cat := s.engine.env.Catalog
	v := s.view
	if v == nil {
		return cat.CurrentMetadataLocation(ctx, id)
	}
	key := id.String()
	if loc, ok := v.locs[key]; ok {
		return loc, nil
	}
	if all, ok := cat.(table.AllPointers); ok && !v.pinned && (v.many || len(v.locs) > 0) {
		locs, err := all.AllMetadataLocations(ctx)
		if err != nil {
			return "", err
		}
		for k, loc := range locs {
			if _, seen := v.locs[k]; !seen {
				v.locs[k] = loc
			}
		}
		v.pinned = true
		if loc, ok := v.locs[key]; ok {
			return loc, nil
		}
	}
	loc, err := cat.CurrentMetadataLocation(ctx, id)
	if err == nil {
		v.locs[key] = loc
	}
	return loc, err
}
