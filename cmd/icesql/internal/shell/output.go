package shell

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/icesql/icesql/cmd/icesql/internal/format"
)

// flushEvery is how long printed rows may wait in a buffer, so a slow
// result shows its rows as they come.
const flushEvery = 100 * time.Millisecond

// errPagerQuit: the pager exited (q in less) before the result ended;
// the rest of the result is not wanted.
var errPagerQuit = errors.New("pager quit")

// scanner reads rows of a database/sql result into []any, dates (which
// the driver gives as time.Time at midnight) as date text.
type scanner struct {
	rows   *sql.Rows
	isDate []bool
	vals   []any
	ptrs   []any
}

func newScanner(rows *sql.Rows, columns int) *scanner {
	sc := &scanner{rows: rows, vals: make([]any, columns), ptrs: make([]any, columns)}
	for i := range sc.vals {
		sc.ptrs[i] = &sc.vals[i]
	}
	if types, err := rows.ColumnTypes(); err == nil {
		sc.isDate = make([]bool, len(types))
		for i, t := range types {
			sc.isDate[i] = t.DatabaseTypeName() == "DATE"
		}
	}
	return sc
}

// scan reads the current row; the slice is reused by the next call.
func (sc *scanner) scan() ([]any, error) {
	clear(sc.vals)
	if err := sc.rows.Scan(sc.ptrs...); err != nil {
		return nil, err
	}
	for i, d := range sc.isDate {
		if t, ok := sc.vals[i].(time.Time); ok && d {
			sc.vals[i] = t.Format(time.DateOnly)
		}
	}
	return sc.vals, nil
}

// query runs a query and reads the whole result; for the shell's own
// small look-ups (DESCRIBE, SHOW), not for user results.
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
	sc := newScanner(rows, len(cols))
	for rows.Next() {
		vals, err := sc.scan()
		if err != nil {
			return nil, err
		}
		r.Rows = append(r.Rows, append([]any(nil), vals...))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return r, ctx.Err()
}

// stream runs a query and prints its rows as they arrive.
func (s *Shell) stream(ctx context.Context, q string, ind *indicator) error {
	rows, err := s.Conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		ind.stop()
		if s.Terminal {
			fmt.Fprintln(s.Out, "OK")
		}
		return nil
	}
	out := s.output()
	rw, err := format.NewRowWriter(out, s.Format, cols)
	if err != nil {
		return err
	}
	sc := newScanner(rows, len(cols))
	lastFlush := time.Time{}
	for rows.Next() {
		ind.stop()
		vals, err := sc.scan()
		if err == nil {
			err = rw.WriteRow(s.showNulls(vals))
		}
		if err == nil && time.Since(lastFlush) >= flushEvery {
			err, lastFlush = rw.Flush(), time.Now()
		}
		if err != nil {
			return finishOutput(out, err)
		}
	}
	ind.stop()
	if err := rows.Err(); err != nil {
		return finishOutput(out, err)
	}
	if err := ctx.Err(); err != nil {
		return finishOutput(out, err)
	}
	return finishOutput(out, rw.Close())
}

// finishOutput ends the pager, if one runs, after err: a pager the user
// quit is no failure.
func finishOutput(out io.Writer, err error) error {
	if pw, ok := out.(*pagingWriter); ok {
		if cerr := pw.Close(); err == nil {
			err = cerr
		}
	}
	if errors.Is(err, errPagerQuit) {
		return nil
	}
	return err
}

// print writes a result held in memory.
func (s *Shell) print(r *format.Result) error {
	if len(r.Columns) == 0 {
		if s.Terminal {
			fmt.Fprintln(s.Out, "OK")
		}
		return nil
	}
	if s.nullSet {
		shown := &format.Result{Columns: r.Columns}
		for _, row := range r.Rows {
			shown.Rows = append(shown.Rows, s.showNulls(slices.Clone(row)))
		}
		r = shown
	}
	out := s.output()
	return finishOutput(out, format.Write(out, s.Format, r))
}

// output is where a result goes: Out, or on a terminal a writer that
// turns to the pager once the result is taller than the screen.
func (s *Shell) output() io.Writer {
	if !s.Terminal || s.Pager == "" || s.Height == nil || s.PagerMode == PagerOff {
		return s.Out
	}
	height := s.Height()
	if s.PagerMode == PagerAlways {
		height = 0
	}
	return &pagingWriter{out: s.Out, pager: s.Pager, height: height, paging: &s.pagerTime}
}

// pagingWriter holds output until it has as many lines as the screen,
// then starts the pager and pipes everything, and all that follows, to
// it. Output that ends before goes straight to out.
type pagingWriter struct {
	out    io.Writer
	pager  string
	height int
	held   bytes.Buffer
	lines  int
	cmd    *exec.Cmd
	pipe   io.WriteCloser
	direct bool // the pager did not start: write to out
	// paging accumulates the time spent writing to the pager (which
	// blocks while the reader reads) and waiting for it to exit.
	paging *time.Duration
}

func (p *pagingWriter) timed(start time.Time) {
	if p.paging != nil {
		*p.paging += time.Since(start)
	}
}

func (p *pagingWriter) Write(b []byte) (int, error) {
	switch {
	case p.pipe != nil:
		defer p.timed(time.Now())
		if _, err := p.pipe.Write(b); err != nil {
			return 0, errPagerQuit
		}
		return len(b), nil
	case p.direct:
		return p.out.Write(b)
	}
	p.held.Write(b)
	p.lines += bytes.Count(b, []byte("\n"))
	if p.lines < p.height-1 {
		return len(b), nil
	}
	if err := p.startPager(); err != nil {
		p.direct = true
	}
	held := p.held.Bytes()
	p.held = bytes.Buffer{}
	if _, err := p.Write(held); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (p *pagingWriter) startPager() error {
	cmd := exec.Command("sh", "-c", p.pager)
	cmd.Stdout = p.out
	cmd.Stderr = os.Stderr
	pipe, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.cmd, p.pipe = cmd, pipe
	return nil
}

// Close prints held output, or ends the pager's input and waits for the
// user to leave it.
func (p *pagingWriter) Close() error {
	if p.pipe == nil {
		_, err := p.out.Write(p.held.Bytes())
		p.held.Reset()
		return err
	}
	defer p.timed(time.Now())
	p.pipe.Close()
	p.cmd.Wait() // a pager quit early is no failure
	p.pipe = nil
	p.direct = true
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
