// Package shell is the icesql interactive shell and script runner: it
// sends SQL through database/sql and prints results.
package shell

import (
	"context"
	"database/sql"
	"fmt"
	"io"
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

	// AfterRun, when set, runs after every statement and meta-command.
	AfterRun func()
	// Info is what \conninfo prints.
	Info ConnInfo
	// NullDisplay replaces NULL in aligned, expanded and Markdown output
	// once \pset null sets it.
	NullDisplay string
	nullSet     bool
	// PagerMode is \pset pager: PagerOn, PagerOff or PagerAlways.
	PagerMode int

	namespace     string        // after USE
	lastStatement string        // for \e
	pagerTime     time.Duration // spent in the pager during the running piece, for \timing

	// ShowCandidates, when set, prints completion candidates above the
	// prompt (a second Tab lists them).
	ShowCandidates func(list string)

	redir *redirect // \o file

	cache          completionCache
	statementSoFar string // earlier lines of the statement being typed
	lastTab        string // the line up to the cursor at the last Tab that completed nothing

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
	s.pagerTime = 0
	var err error
	if p.Meta {
		err = s.meta(ctx, p.Text)
	} else {
		var ind *indicator
		if s.Terminal && s.ErrIsTerminal {
			ind = startIndicator(s.Err)
		}
		err = s.statement(ctx, p.Text, ind)
		ind.stop()
		s.lastStatement = p.Text
		if err == nil {
			s.noteUse(p.Text)
		}
	}
	if s.Timing && err != ErrQuit {
		// Time spent paging is the reader's, not the statement's.
		elapsed := time.Since(start) - s.pagerTime
		fmt.Fprintf(s.Out, "Time: %.3f ms\n", float64(elapsed.Microseconds())/1000)
	}
	if s.AfterRun != nil {
		s.AfterRun()
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

// statement runs SQL; ind is erased before anything is printed.
func (s *Shell) statement(ctx context.Context, stmt string, ind *indicator) error {
	if !returnsRows(stmt) {
		res, err := s.Conn.ExecContext(ctx, stmt)
		ind.stop()
		if err != nil {
			return err
		}
		s.tag(stmt, res)
		return nil
	}
	return s.stream(ctx, stmt, ind)
}

// noteUse remembers the namespace of a USE statement, for \conninfo.
func (s *Shell) noteUse(stmt string) {
	if strings.ToUpper(firstWord(stmt)) != "USE" {
		return
	}
	f := strings.Fields(stmt)
	if len(f) == 2 {
		s.namespace = strings.Trim(f[1], "`")
	}
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
