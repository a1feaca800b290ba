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

var keywords = strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN LEFT RIGHT FULL
	INNER OUTER CROSS ON USING AS AND OR NOT NULL IS IN LIKE BETWEEN CASE WHEN THEN ELSE END DISTINCT
	UNION ALL INTERSECT EXCEPT WITH INSERT INTO VALUES OVERWRITE UPDATE SET DELETE MERGE MATCHED CREATE
	TABLE NAMESPACE DATABASE DROP ALTER ADD COLUMN RENAME TO PARTITIONED TBLPROPERTIES SHOW TABLES
	NAMESPACES DESCRIBE EXTENDED EXPLAIN USE CALL ASC DESC COUNT SUM AVG MIN MAX CAST TRUE FALSE
	BOOLEAN INT BIGINT FLOAT DOUBLE DECIMAL DATE TIME TIMESTAMP TIMESTAMP_NTZ STRING BINARY UUID
	LOAD DATA INFILE FOR SYSTEM_TIME VERSION OF`)

var metaCommands = []string{`\q`, `\help`, `\dn`, `\dt`, `\d`, `\snapshots`, `\format`, `\x`, `\timing`, `\copy`}

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

// tableContext reports whether the word before the cursor is followed by
// a table name in SQL or in a meta-command.
func tableContext(prev string) bool {
	switch strings.ToUpper(prev) {
	case "FROM", "JOIN", "INTO", "UPDATE", "TABLE", "DESCRIBE", "DESC", "EXTENDED", "USE", "IN",
		`\D`, `\DT`, `\SNAPSHOTS`, `\COPY`:
		return true
	}
	return false
}

// Complete returns the candidates for the word ending at pos in line.
func (s *Shell) Complete(ctx context.Context, line string, pos int) (start int, candidates []string) {
	start = pos
	for start > 0 && isWordByte(line[start-1]) {
		start--
	}
	word := line[start:pos]
	before := strings.Fields(line[:start])
	prev := ""
	if len(before) > 0 {
		prev = before[len(before)-1]
	}
	var pool []string
	switch {
	case strings.HasPrefix(word, `\`):
		pool = metaCommands
	case tableContext(prev):
		pool = s.tableNames(ctx)
	default:
		pool = append(pool, keywords...)
		for _, t := range mentionedTables(line, s.tableNames(ctx)) {
			pool = append(pool, s.columnNames(ctx, t)...)
		}
	}
	upper := strings.ToUpper(word)
	seen := map[string]bool{}
	for _, c := range pool {
		if strings.HasPrefix(strings.ToUpper(c), upper) && !seen[c] {
			seen[c] = true
			candidates = append(candidates, c)
		}
	}
	sort.Strings(candidates)
	return start, candidates
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '\\' || c == '`' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// mentionedTables are the known tables named anywhere in line.
func mentionedTables(line string, known []string) []string {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return r < 0x80 && !isWordByte(byte(r)) }) {
		words[w] = true
	}
	var out []string
	for _, k := range known {
		if words[k] {
			out = append(out, k)
		}
	}
	return out
}

// commonPrefix is the longest prefix shared by all of ss.
func commonPrefix(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// AutoComplete is a golang.org/x/term AutoCompleteCallback: Tab completes
// the word before the cursor to the candidates' common prefix, matching
// the case the user typed for keywords.
func (s *Shell) AutoComplete(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' {
		return "", 0, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start, cands := s.Complete(ctx, line, pos)
	if len(cands) == 0 {
		return "", 0, false
	}
	word := line[start:pos]
	if word != "" && strings.ToLower(word) == word {
		for i, c := range cands {
			if isKeyword(c) {
				cands[i] = strings.ToLower(c)
			}
		}
	}
	fill := commonPrefix(cands)
	if len(cands) == 1 {
		fill += " "
	}
	if len(fill) < len(word) {
		return "", 0, false
	}
	newLine := line[:start] + fill + line[pos:]
	return newLine, start + len(fill), true
}

func isKeyword(s string) bool {
	for _, k := range keywords {
		if k == s {
			return true
		}
	}
	return false
}
