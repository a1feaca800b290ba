package shell

import (
	"context"
	"sort"
	"strings"
	"time"
)

var keywords = strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN LEFT RIGHT FULL
	INNER OUTER CROSS ON USING AS AND OR NOT NULL IS IN LIKE BETWEEN CASE WHEN THEN ELSE END DISTINCT
	UNION ALL INTERSECT EXCEPT WITH INSERT INTO VALUES OVERWRITE UPDATE SET DELETE MERGE MATCHED CREATE
	TABLE NAMESPACE DATABASE DROP ALTER ADD COLUMN RENAME TO PARTITIONED TBLPROPERTIES SHOW TABLES
	NAMESPACES DESCRIBE EXTENDED EXPLAIN USE CALL ASC DESC COUNT SUM AVG MIN MAX CAST TRUE FALSE
	BOOLEAN INT BIGINT FLOAT DOUBLE DECIMAL DATE TIME TIMESTAMP TIMESTAMP_NTZ STRING BINARY UUID
	TIMESTAMP_NS TIMESTAMPTZ_NS VARIANT GEOMETRY GEOGRAPHY UNKNOWN VOID VIEW VIEWS LATERAL RECURSIVE
	LOAD DATA INFILE FOR SYSTEM_TIME VERSION OF`)

var metaCommands = []string{`\q`, `\help`, `\dn`, `\dt`, `\d`, `\snapshots`, `\format`, `\x`, `\timing`, `\copy`}

// metadataTables are the names that may follow table. to read a table's
// metadata.
var metadataTables = strings.Fields(`snapshots history metadata_log_entries manifests all_manifests
	files data_files delete_files entries partitions refs all_data_files all_delete_files all_files
	all_entries position_deletes`)

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
// Columns are offered for the tables named in the line and in the
// statement typed so far on earlier lines (SetStatementSoFar).
func (s *Shell) Complete(ctx context.Context, line string, pos int) (start int, candidates []string) {
	if start, _, ok := fileWord(line, pos); ok {
		return start, fileCandidates(line[start:pos])
	}
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
	// first are listed before the rest: the columns where a column is
	// expected.
	var first, pool []string
	switch {
	case strings.HasPrefix(word, `\`):
		pool = metaCommands
	case tableContext(prev):
		pool = s.tableNames(ctx)
		pool = append(pool, metadataNames(word, pool)...)
	default:
		names := s.tableNames(ctx)
		var columns []string
		for _, t := range mentionedTables(s.statementSoFar+"\n"+line, names) {
			columns = append(columns, s.columnNames(ctx, t)...)
		}
		if columnContext(prev) {
			first = columns
		} else {
			pool = columns
		}
		pool = append(pool, keywords...)
		pool = append(pool, metadataNames(word, names)...)
	}
	upper := strings.ToUpper(word)
	seen := map[string]bool{}
	pick := func(pool []string) []string {
		var out []string
		for _, c := range pool {
			if strings.HasPrefix(strings.ToUpper(c), upper) && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
		sort.Strings(out)
		return out
	}
	candidates = append(pick(first), pick(pool)...)
	return start, candidates
}

// columnContext reports whether the word before the cursor is usually
// followed by a column: there Tab lists columns before keywords.
func columnContext(prev string) bool {
	if strings.HasSuffix(prev, ",") || strings.HasSuffix(prev, "(") {
		return true
	}
	switch strings.ToUpper(prev) {
	case "WHERE", "AND", "OR", "NOT", "ON", "BY", "SELECT", "DISTINCT", "SET", "HAVING", "=", "<", ">",
		"<=", ">=", "<>", "!=", "+", "-", "*", "/":
		return true
	}
	return false
}

// metadataNames offers t.snapshots and the like when word is a known
// table followed by a dot.
func metadataNames(word string, tables []string) []string {
	dot := strings.LastIndexByte(word, '.')
	if dot < 0 {
		return nil
	}
	table := word[:dot]
	known := false
	for _, t := range tables {
		known = known || strings.EqualFold(t, table)
	}
	if !known {
		return nil
	}
	out := make([]string, len(metadataTables))
	for i, m := range metadataTables {
		out[i] = table + "." + m
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '\\' || c == '`' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// mentionedTables are the known tables named anywhere in text.
func mentionedTables(text string, known []string) []string {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r < 0x80 && !isWordByte(byte(r)) }) {
		words[strings.ToLower(w)] = true
	}
	var out []string
	for _, k := range known {
		if words[strings.ToLower(k)] {
			out = append(out, k)
		}
	}
	return out
}

// commonPrefix is the longest prefix shared by all of ss, spelled as in
// the first; fold compares case-insensitively (keywords and names, not
// file names).
func commonPrefix(ss []string, fold bool) string {
	if len(ss) == 0 {
		return ""
	}
	p := ss[0]
	for _, s := range ss[1:] {
		n := 0
		for n < len(p) && n < len(s) && (p[n] == s[n] || fold && strings.EqualFold(p[n:n+1], s[n:n+1])) {
			n++
		}
		p = p[:n]
	}
	return p
}

// SetStatementSoFar tells completion the earlier lines of a statement
// being typed, so columns of the tables they name are offered.
func (s *Shell) SetStatementSoFar(text string) { s.statementSoFar = text }

// AutoComplete is a golang.org/x/term AutoCompleteCallback: Tab completes
// the word before the cursor to the candidates' common prefix, matching
// the case the user typed for keywords. A second Tab that cannot
// complete further lists the candidates through ShowCandidates.
func (s *Shell) AutoComplete(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' {
		s.lastTab = ""
		return "", 0, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start, cands := s.Complete(ctx, line, pos)
	if len(cands) == 0 {
		return "", 0, false
	}
	word := line[start:pos]
	_, quote, file := fileWord(line, pos)
	if !file && word != "" && strings.ToLower(word) == word {
		for i, c := range cands {
			if isKeyword(c) {
				cands[i] = strings.ToLower(c)
			}
		}
	}
	fill := commonPrefix(cands, !file) // case matters in file names
	switch {
	case len(cands) != 1:
	case file && strings.HasSuffix(fill, "/"):
		// A directory: its files come next.
	case quote != 0 && (pos == len(line) || line[pos] != quote):
		fill += string(quote) + " "
	default:
		fill += " "
	}
	if len(fill) <= len(word) {
		// Nothing to add: a repeated Tab lists what could follow.
		here := line[:pos]
		if s.lastTab == here && len(cands) > 1 && s.ShowCandidates != nil {
			s.ShowCandidates(candidateColumns(cands, 80))
		}
		s.lastTab = here
		if len(fill) < len(word) {
			return "", 0, false
		}
		return line, pos, true
	}
	s.lastTab = ""
	newLine := line[:start] + fill + line[pos:]
	return newLine, start + len(fill), true
}

// candidateColumns lays candidates out in columns across width, sorted
// down the columns as ls does, ending with a newline.
func candidateColumns(cands []string, width int) string {
	colWidth := 0
	for _, c := range cands {
		colWidth = max(colWidth, len(c)+2)
	}
	perLine := max(width/colWidth, 1)
	lines := (len(cands) + perLine - 1) / perLine
	var b strings.Builder
	for l := range lines {
		for i := l; i < len(cands); i += lines {
			b.WriteString(cands[i])
			if i+lines < len(cands) {
				b.WriteString(strings.Repeat(" ", colWidth-len(cands[i])))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func isKeyword(s string) bool {
	for _, k := range keywords {
		if k == s {
			return true
		}
	}
	return false
}
