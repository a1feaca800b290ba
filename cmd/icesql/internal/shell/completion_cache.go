package shell

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/icesql/icesql/cmd/icesql/internal/format"
)

// completionTTL is how long names fetched for completion are reused.
const completionTTL = 5 * time.Second

// completionCache holds names for tab completion, refreshed through SQL
// at most every completionTTL.
type completionCache struct {
	mu      sync.Mutex
	fetched time.Time
	names   []string // namespaces, tables and ns.table
	columns map[string][]string
	colTime map[string]time.Time
}

// tableNames returns namespaces, tables and qualified tables.
func (s *Shell) tableNames(ctx context.Context) []string {
	c := &s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.fetched) < completionTTL {
		return c.names
	}
	seen := map[string]bool{}
	var names []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if r, err := s.query(ctx, "SHOW NAMESPACES"); err == nil {
		for _, row := range r.Rows {
			ns, _ := format.Text(row[0])
			add(ns)
			if t, err := s.query(ctx, "SHOW TABLES IN "+ns); err == nil {
				for _, tr := range t.Rows {
					name, _ := format.Text(tr[1])
					add(ns + "." + name)
				}
			}
		}
	}
	if r, err := s.query(ctx, "SHOW TABLES"); err == nil {
		for _, row := range r.Rows {
			name, _ := format.Text(row[1])
			add(name)
		}
	}
	sort.Strings(names)
	c.names, c.fetched = names, time.Now()
	return names
}

// columnNames returns the columns of table, or nil.
func (s *Shell) columnNames(ctx context.Context, table string) []string {
	c := &s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.columns == nil {
		c.columns, c.colTime = map[string][]string{}, map[string]time.Time{}
	}
	if time.Since(c.colTime[table]) < completionTTL {
		return c.columns[table]
	}
	var cols []string
	if r, err := s.query(ctx, "DESCRIBE "+table); err == nil {
		for _, row := range r.Rows {
			name, _ := format.Text(row[0])
			if name == "" || strings.HasPrefix(name, "#") {
				break
			}
			cols = append(cols, name)
		}
	}
	c.columns[table], c.colTime[table] = cols, time.Now()
	return cols
}
