package slt

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ValueDB is what a SQLite-format script runs against. QueryValues
// returns the values as database/sql scans them into an any (nil for
// NULL); the runner renders them by the query's type string.
type ValueDB interface {
	Exec(sql string) error
	QueryValues(sql string) (ncols int, rows [][]any, err error)
}

// Refusal is an error an engine gives by design to SQL the script
// expects to succeed (a feature the engine's model does not have). A
// statement or query failing with an error matching Pattern counts as
// refused, not as failed. A wrong result is never refused, except on a
// later record naming a table that a refused statement would have
// created or changed (its data differs by design): those count as
// refused with the reason "depends on a refused statement".
type Refusal struct {
	Pattern *regexp.Regexp
	Reason  string
}

// Divergence is a difference of semantics by design, checked rather than
// assumed: when a query's result is wrong, Rewrite gives the query in the
// engine's own spelling of what the corpus means (ok false: not
// applicable), and when the rewritten query returns the expected result
// the record counts as refused with Reason. A rewritten query that still
// differs leaves the record wrong.
type Divergence struct {
	Rewrite func(sql string) (string, bool)
	Reason  string
}

// Outcome classifies one record's run.
type Outcome int

// Outcomes of a record.
const (
	Passed  Outcome = iota
	Skipped         // skipif/onlyif ruled it out
	Refused         // failed with a listed by-design refusal
	Wrong           // ran and gave another result (or succeeded where an error was expected)
	Errored         // failed on SQL the script expects to succeed, with no listed refusal
)

func (o Outcome) String() string {
	return [...]string{"passed", "skipped", "refused", "wrong", "error"}[o]
}

// ScriptFailure is one record that was refused, wrong or failed.
type ScriptFailure struct {
	File    string
	Record  ScriptRecord
	Outcome Outcome
	Msg     string
}

func (f ScriptFailure) String() string {
	return fmt.Sprintf("%s:%d: %s: %s\n  sql: %s", f.File, f.Record.Line, f.Outcome, f.Msg, f.Record.SQL)
}

// ScriptStats counts the records of one or more runs.
type ScriptStats struct {
	Statements, Queries int // records run
	Count               [Errored + 1]int
	RefusedBy           map[string]int // refusal reason -> records
	StatementTime       time.Duration
	QueryTime           time.Duration
	SlowestQuery        time.Duration // the longest one query took
	SlowestAt           string        // file:line of that query
}

// Add adds o's counts to s.
func (s *ScriptStats) Add(o ScriptStats) {
	s.Statements += o.Statements
	s.Queries += o.Queries
	for i := range s.Count {
		s.Count[i] += o.Count[i]
	}
	for k, v := range o.RefusedBy {
		if s.RefusedBy == nil {
			s.RefusedBy = map[string]int{}
		}
		s.RefusedBy[k] += v
	}
	s.StatementTime += o.StatementTime
	s.QueryTime += o.QueryTime
	if o.SlowestQuery > s.SlowestQuery {
		s.SlowestQuery, s.SlowestAt = o.SlowestQuery, o.SlowestAt
	}
}

// PassRate is passed / (passed + wrong + errors): the share of what
// should pass that does (skipped and refused records are not counted).
func (s ScriptStats) PassRate() float64 {
	n := s.Count[Passed] + s.Count[Wrong] + s.Count[Errored]
	if n == 0 {
		return 1
	}
	return float64(s.Count[Passed]) / float64(n)
}

func (s ScriptStats) String() string {
	rate := func(n int, d time.Duration) float64 {
		if d <= 0 {
			return 0
		}
		return float64(n) / d.Seconds()
	}
	slowest := ""
	if s.SlowestAt != "" {
		slowest = fmt.Sprintf(", slowest %s at %s", s.SlowestQuery.Round(time.Millisecond), s.SlowestAt)
	}
	return fmt.Sprintf("%d statements (%.0f/s), %d queries (%.0f/s%s): %d passed, %d wrong, %d errors, %d refused by design, %d skipped; pass rate %.4f%%",
		s.Statements, rate(s.Statements, s.StatementTime), s.Queries, rate(s.Queries, s.QueryTime), slowest,
		s.Count[Passed], s.Count[Wrong], s.Count[Errored], s.Count[Refused], s.Count[Skipped], 100*s.PassRate())
}

// ScriptRunner runs SQLite-format scripts.
type ScriptRunner struct {
	// Engine is the name skipif/onlyif lines are compared with.
	Engine   string
	Refusals []Refusal
	// Divergences are tried, in order, on queries whose result is wrong.
	Divergences []Divergence
	// HashThreshold, when positive, overrides the scripts' hash-threshold
	// records (the C harness's -ht option).
	HashThreshold int
}

// DefaultHashThreshold is the C harness's threshold before a script sets one.
const DefaultHashThreshold = 8

// Run runs the records of one script (file names it in failures) on db.
func (r *ScriptRunner) Run(db ValueDB, file string, recs []ScriptRecord) (ScriptStats, []ScriptFailure) {
	var st ScriptStats
	var fails []ScriptFailure
	threshold := DefaultHashThreshold
	if r.HashThreshold > 0 {
		threshold = r.HashThreshold
	}
	labels := map[string]string{}
	tainted := map[string]bool{} // tables a refused statement made or changed
	for _, rec := range recs {
		if !rec.Applies(r.Engine) {
			if rec.Kind <= ScriptQuery {
				st.Count[Skipped]++
			}
			continue
		}
		var out Outcome
		var msg string
		switch rec.Kind {
		case ScriptHalt:
			return st, fails
		case ScriptHashThreshold:
			if r.HashThreshold <= 0 {
				threshold = rec.Threshold
			}
			continue
		case ScriptStatement:
			st.Statements++
			start := time.Now()
			err := db.Exec(rec.SQL)
			st.StatementTime += time.Since(start)
			out, msg = r.statementOutcome(rec, err)
		case ScriptQuery:
			st.Queries++
			start := time.Now()
			ncols, rows, err := db.QueryValues(rec.SQL)
			took := time.Since(start)
			st.QueryTime += took
			if took > st.SlowestQuery {
				st.SlowestQuery, st.SlowestAt = took, fmt.Sprintf("%s:%d", file, rec.Line)
			}
			if err != nil {
				out, msg = r.errorOutcome(err)
				break
			}
			prev, hadLabel := labels[rec.Label]
			out, msg = checkQuery(rec, ncols, rows, threshold, labels)
			if out == Wrong && len(r.Divergences) > 0 {
				if hadLabel {
					labels[rec.Label] = prev
				} else {
					delete(labels, rec.Label)
				}
				if reason, ok := r.divergent(db, rec, threshold, labels); ok {
					out, msg = Refused, reason
				}
			}
		}
		if out == Wrong || out == Errored {
			if t := readsTainted(rec.SQL, tainted); t != "" {
				out, msg = Refused, "depends on a refused statement"
			}
		}
		if out == Refused && rec.Kind == ScriptStatement {
			for _, t := range statementTables(rec.SQL) {
				tainted[t] = true
			}
		}
		st.Count[out]++
		if out == Refused {
			if st.RefusedBy == nil {
				st.RefusedBy = map[string]int{}
			}
			st.RefusedBy[msg]++
		}
		if out != Passed {
			fails = append(fails, ScriptFailure{File: file, Record: rec, Outcome: out, Msg: msg})
		}
	}
	return st, fails
}

// divergent reruns a wrong query through each applicable divergence and
// returns the reason of the first whose result is the expected one.
func (r *ScriptRunner) divergent(db ValueDB, rec ScriptRecord, threshold int, labels map[string]string) (string, bool) {
	for _, d := range r.Divergences {
		q, ok := d.Rewrite(rec.SQL)
		if !ok || q == rec.SQL {
			continue
		}
		ncols, rows, err := db.QueryValues(q)
		if err != nil {
			continue
		}
		prev, hadLabel := labels[rec.Label]
		if out, _ := checkQuery(rec, ncols, rows, threshold, labels); out == Passed {
			return d.Reason, true
		}
		if hadLabel {
			labels[rec.Label] = prev
		} else {
			delete(labels, rec.Label)
		}
	}
	return "", false
}

func (r *ScriptRunner) statementOutcome(rec ScriptRecord, err error) (Outcome, string) {
	switch {
	case rec.ExpectErr && err == nil:
		return Wrong, "statement succeeded; an error was expected"
	case rec.ExpectErr, err == nil:
		return Passed, ""
	}
	return r.errorOutcome(err)
}

// errorOutcome is Refused (with the reason as message) when err matches
// a refusal, else Errored.
func (r *ScriptRunner) errorOutcome(err error) (Outcome, string) {
	for _, ref := range r.Refusals {
		if ref.Pattern.MatchString(err.Error()) {
			return Refused, ref.Reason
		}
	}
	return Errored, err.Error()
}

var hashLine = regexp.MustCompile(`^\d+ values hashing to [0-9a-f]{32}$`)

func checkQuery(rec ScriptRecord, ncols int, rows [][]any, threshold int, labels map[string]string) (Outcome, string) {
	if ncols != len(rec.Types) {
		return Wrong, fmt.Sprintf("%d result columns; type string %q has %d", ncols, rec.Types, len(rec.Types))
	}
	vals := make([]string, 0, len(rows)*ncols)
	for _, row := range rows {
		for i, v := range row {
			vals = append(vals, RenderValue(v, rec.Types[i]))
		}
	}
	switch rec.Sort {
	case "rowsort":
		sortRows(vals, ncols)
	case "valuesort":
		slices.Sort(vals)
	}
	// As the C harness: a label always hashes (results of one label must
	// agree), but the file holds the values unless they exceed the threshold.
	got := vals
	hashed := threshold > 0 && len(vals) > threshold
	if hashed || rec.Label != "" {
		sum := md5.New()
		for _, v := range vals {
			sum.Write([]byte(v))
			sum.Write([]byte{'\n'})
		}
		h := hex.EncodeToString(sum.Sum(nil))
		if hashed {
			got = []string{fmt.Sprintf("%d values hashing to %s", len(vals), h)}
		}
		if rec.Label != "" {
			if prev, ok := labels[rec.Label]; ok && prev != h {
				return Wrong, fmt.Sprintf("result of label %s differs from an earlier query's", rec.Label)
			}
			labels[rec.Label] = h
		}
	}
	if slices.Equal(got, rec.Expect) {
		return Passed, ""
	}
	show := got
	if hashed && len(vals) <= 40 {
		show = vals
	}
	return Wrong, fmt.Sprintf("results differ\n--- want\n%s\n--- got\n%s", strings.Join(rec.Expect, "\n"), strings.Join(show, "\n"))
}

// sortRows sorts vals as rows of n values, comparing value by value (strcmp).
func sortRows(vals []string, n int) {
	if n == 0 {
		return
	}
	rows := make([][]string, 0, len(vals)/n)
	for i := 0; i+n <= len(vals); i += n {
		rows = append(rows, vals[i:i+n:i+n])
	}
	slices.SortStableFunc(rows, func(a, b []string) int { return slices.Compare(a, b) })
	out := make([]string, 0, len(vals))
	for _, r := range rows {
		out = append(out, r...)
	}
	copy(vals, out)
}

// RenderValue renders v as SQLite's harness does for a column of type t:
// NULL as "NULL"; I as an integer (reals truncated toward zero, as
// sqlite3_column_int); R with three decimals; T as text, "(empty)" for
// the empty string and "@" for each control or non-ASCII byte.
func RenderValue(v any, t byte) string {
	if v == nil {
		return "NULL"
	}
	switch t {
	case 'I':
		return strconv.FormatInt(toInt(v), 10)
	case 'R':
		return strconv.FormatFloat(toFloat(v), 'f', 3, 64)
	}
	s := toText(v)
	if s == "" {
		return "(empty)"
	}
	b := []byte(s)
	for i, c := range b {
		if c < ' ' || c > '~' {
			b[i] = '@'
		}
	}
	return string(b)
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int64:
		return x
	case int32:
		return int64(x)
	case float64:
		return truncFloat(x)
	case float32:
		return truncFloat(float64(x))
	}
	return textToInt(toText(v))
}

func truncFloat(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// textToInt reads the longest numeric prefix of s, as SQLite converts text.
func textToInt(s string) int64 {
	s = strings.TrimSpace(s)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	return truncFloat(textToFloat(s))
}

var numPrefix = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?`)

func textToFloat(s string) float64 {
	f, _ := strconv.ParseFloat(numPrefix.FindString(strings.TrimSpace(s)), 64)
	return f
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case float64:
		return x
	case float32:
		return float64(x)
	}
	return textToFloat(toText(v))
}

func toText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case float64:
		return sqliteReal(x)
	case float32:
		return sqliteReal(float64(x))
	case time.Time:
		return x.Format("2006-01-02 15:04:05.999999")
	}
	return fmt.Sprint(v)
}

// sqliteReal spells a real as SQLite's text conversion does (%!.15g: 15
// significant digits, always with a decimal point).
func sqliteReal(f float64) string {
	s := strconv.FormatFloat(f, 'g', 15, 64)
	if strings.ContainsAny(s, "eE") {
		return s
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		if strings.HasSuffix(s, ".") {
			s += "0"
		}
		return s
	}
	return s + ".0"
}

var (
	dataStatement  = regexp.MustCompile(`(?i)^\s*(CREATE\s+(TEMP\s+|TEMPORARY\s+)?(TABLE|VIEW)|INSERT|REPLACE|UPDATE|DELETE)\b`)
	statementTable = regexp.MustCompile(`(?i)\b(?:TABLE|VIEW|INTO|UPDATE|FROM)\s+(?:IF\s+NOT\s+EXISTS\s+)?([A-Za-z_][A-Za-z0-9_]*)`)
)

// statementTables names the table whose rows a statement makes or
// changes (CREATE TABLE/VIEW, INSERT, REPLACE, UPDATE, DELETE: the first
// name after TABLE, VIEW, INTO, UPDATE or FROM), lower case. Indexes and
// triggers change no rows when refused.
func statementTables(sql string) []string {
	if !dataStatement.MatchString(sql) {
		return nil
	}
	if m := statementTable.FindStringSubmatch(sql); m != nil {
		return []string{strings.ToLower(m[1])}
	}
	return nil
}

// readsTainted returns a tainted table the SQL names, or "".
func readsTainted(sql string, tainted map[string]bool) string {
	if len(tainted) == 0 {
		return ""
	}
	for _, w := range wordRE.FindAllString(sql, -1) {
		if w = strings.ToLower(w); tainted[w] {
			return w
		}
	}
	return ""
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
