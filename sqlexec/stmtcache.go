package sqlexec

import (
	"container/list"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/sqlexec/parser"
)

// stmtCacheSize bounds the texts a session keeps parsed.
const stmtCacheSize = 64

// stmtCache keeps the Prepared form of recent texts run through
// Session.Exec and Session.Query, so a text run again (database/sql runs
// statements with arguments this way) is neither parsed nor, from its
// second run, planned again.
type stmtCache struct {
	items map[string]*list.Element
	lru   *list.List // of *Prepared with its text, most recent first
}

type stmtCacheEntry struct {
	sql string
	p   *Prepared
}

func (s *Session) prepareCached(sql string) (*Prepared, error) {
	if s.stmts == nil {
		s.stmts = &stmtCache{items: map[string]*list.Element{}, lru: list.New()}
	}
	c := s.stmts
	if el, ok := c.items[sql]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*stmtCacheEntry).p, nil
	}
	p, err := s.Prepare(sql)
	if err != nil || !reusable(p) {
		return p, err
	}
	c.items[sql] = c.lru.PushFront(&stmtCacheEntry{sql: sql, p: p})
	if c.lru.Len() > stmtCacheSize {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.items, last.Value.(*stmtCacheEntry).sql)
	}
	return p, nil
}

// reusable reports whether a script is only queries and row writes,
// whose parsed form may run again.
func reusable(p *Prepared) bool {
	for _, st := range p.stmts {
		w, ok := st.(*parser.TiDBStmt)
		if !ok {
			return false
		}
		switch w.Node.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt, *ast.InsertStmt:
		default:
			return false
		}
	}
	return true
}
