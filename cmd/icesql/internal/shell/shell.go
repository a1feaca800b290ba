// Package shell is the icesql interactive shell and script runner: it
// sends SQL through database/sql and prints results.
package shell

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/icesql/icesql/cmd/icesql/internal/format"
	"github.com/icesql/icesql/cmd/icesql/internal/split"
)

// Shell runs statements and meta-commands on one connection, so that
// session state (USE) carries from one statement to the next.
type Shell struct {
	Conn *sql.Conn
	Out  io.Writer
	Err  io.Writer
	// Format is the output format; prevFormat is restored by \x.
	Format     format.Format
	prevFormat format.Format
	Timing     bool
	// Terminal is set when Out is a terminal: command tags are printed,
	// long results are paged and loads show progress.
	Terminal bool
	// Pager is the shell command results longer than Height lines are
	// piped through; empty for none.
	Pager  string
	Height func() int
	// ErrIsTerminal enables the \copy progress bar.
	ErrIsTerminal bool

	cache completionCache

	mu     sync.Mutex
	cancel context.CancelFunc
}

// New returns a shell on conn writing to out and errOut.
func New(conn *sql.Conn, out, errOut io.Writer) *Shell {
	return &Shell{Conn: conn, Out: out, Err: errOut, Format: format.Aligned, prevFormat: format.Aligned}
}

// Interrupt cancels the running statement, if any; it reports whether
// there was one.
func (s *Shell) Interrupt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel == nil {
		return false
	}
	s.cancel()
	return true
}

// Run runs one piece (statement or meta-command). It returns ErrQuit for
// \q; other errors are the piece's failure.
func (s *Shell) Run(ctx context.Context, p split.Piece) error {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}()
	start := time.Now()
	var err error
	if p.Meta {
		err = s.meta(ctx, p.Text)
	} else {
		err = s.statement(ctx, p.Text)
	}
	if s.Timing && err != ErrQuit {
		fmt.Fprintf(s.Out, "Time: %.3f ms\n", float64(time.Since(start).Microseconds())/1000)
	}
	return err
}

// RunScript runs every piece of text, stopping at the first failure,
// which it returns as a *StatementError naming source and position.
func (s *Shell) RunScript(ctx context.Context, text, source string) error {
	pieces, rest := split.Split(text, split.Position{Line: 1, Col: 1})
	if strings.TrimSpace(rest) != "" {
		// The last statement may omit its semicolon, as psql -c allows.
		at := positionOf(text, len(text)-len(rest))
		last, open := split.Split(rest+"\n;", at)
		if strings.TrimSpace(open) != "" {
			pieces = append(pieces, last...)
			return s.runPieces(ctx, pieces, source, &StatementError{Source: source, Line: at.Line, Col: at.Col, Err: ErrUnterminated})
		}
		pieces = append(pieces, last...)
	}
	return s.runPieces(ctx, pieces, source, nil)
}

// runPieces runs pieces up to the first failure, then returns tail.
func (s *Shell) runPieces(ctx context.Context, pieces []split.Piece, source string, tail error) error {
	for _, p := range pieces {
		if err := s.Run(ctx, p); err != nil {
			if err == ErrQuit {
				return nil
			}
			return &StatementError{Source: source, Line: p.Line, Col: p.Col, Err: err}
		}
	}
	return tail
}

// positionOf is the line and column of byte offset off in text.
func positionOf(text string, off int) split.Position {
	line := 1 + strings.Count(text[:off], "\n")
	col := 1
	if i := strings.LastIndexByte(text[:off], '\n'); i >= 0 {
		col = 1 + len([]rune(text[i+1:off]))
	} else {
		col = 1 + len([]rune(text[:off]))
	}
	return split.Position{Line: line, Col: col}
}

// returnsRows guesses from the first keyword whether a statement is a
// query; the others go through Exec, which reports rows affected.
func returnsRows(stmt string) bool {
	w := strings.ToUpper(firstWord(stmt))
	switch w {
	case "SELECT", "WITH", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "VALUES", "TABLE", "(", "CALL":
		return true
	}
	return false
}

// firstWord skips leading comments and returns the first word.
func firstWord(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "--"), strings.HasPrefix(s, "#"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i:]
			continue
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
			continue
		}
		break
	}
	if strings.HasPrefix(s, "(") {
		return "("
	}
	end := strings.IndexFunc(s, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
	if end < 0 {
		return s
	}
	return s[:end]
}

func (s *Shell) statement(ctx context.Context, stmt string) error {
	if !returnsRows(stmt) {
		res, err := s.Conn.ExecContext(ctx, stmt)
		if err != nil {
			return err
		}
		s.tag(stmt, res)
		return nil
	}
	r, err := s.query(ctx, stmt)
	if err != nil {
		return err
	}
	return s.print(r)
}

// tag prints a command tag for a statement without rows.
func (s *Shell) tag(stmt string, res sql.Result) {
	if !s.Terminal {
		return
	}
	n, err := res.RowsAffected()
	switch w := strings.ToUpper(firstWord(stmt)); {
	case err == nil && (w == "INSERT" || w == "DELETE" || w == "UPDATE" || w == "MERGE" || w == "LOAD" || n > 0):
		fmt.Fprintf(s.Out, "OK, %d %s affected\n", n, plural(n, "row"))
	default:
		fmt.Fprintln(s.Out, "OK")
	}
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// query runs a query and reads the whole result.
func (s *Shell) query(ctx context.Context, q string, args ...any) (*format.Result, error) {
	rows, err := s.Conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	r := &format.Result{Columns: cols}
	// The driver gives dates as time.Time at midnight; they print as dates.
	var isDate []bool
	if types, err := rows.ColumnTypes(); err == nil {
		isDate = make([]bool, len(types))
		for i, t := range types {
			isDate[i] = t.DatabaseTypeName() == "DATE"
		}
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, d := range isDate {
			if t, ok := vals[i].(time.Time); ok && d {
				vals[i] = t.Format(time.DateOnly)
			}
		}
		r.Rows = append(r.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r, nil
}

// print writes a result, through the pager when it is taller than the
// terminal.
func (s *Shell) print(r *format.Result) error {
	if len(r.Columns) == 0 {
		if s.Terminal {
			fmt.Fprintln(s.Out, "OK")
		}
		return nil
	}
	var buf bytes.Buffer
	if err := format.Write(&buf, s.Format, r); err != nil {
		return err
	}
	if s.Terminal && s.Pager != "" && s.Height != nil && bytes.Count(buf.Bytes(), []byte("\n")) >= s.Height()-1 {
		if err := page(s.Pager, buf.Bytes(), s.Out); err == nil {
			return nil
		}
	}
	_, err := s.Out.Write(buf.Bytes())
	return err
}

// page runs the pager on text; an error means it did not start, and the
// caller prints the text itself.
func page(pager string, text []byte, out io.Writer) error {
	cmd := exec.Command("sh", "-c", pager)
	cmd.Stdin = bytes.NewReader(text)
	cmd.Stdout = out
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	cmd.Wait() // a pager quit early (q in less) is no failure
	return nil
}

// DefaultPager is $PAGER, or less -FRX when less exists, or none.
func DefaultPager() string {
	if p, ok := os.LookupEnv("PAGER"); ok {
		return strings.TrimSpace(p)
	}
	if _, err := exec.LookPath("less"); err == nil {
		return "less -FRX"
	}
	return ""
}
