package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"golang.org/x/term"

	"github.com/icesql/icesql/cmd/icesql/internal/split"
)

const (
	prompt             = "icesql> "
	continuationPrompt = "     -> "
	// ctrlCMark replaces Ctrl-C in the input: the terminal line editor
	// treats Ctrl-C like Ctrl-D (end of input) and then re-reads it
	// forever, so Ctrl-C reaches it as an otherwise unused key followed
	// by Enter, and the shell drops the line it ends.
	ctrlCMark = 0x07
)

// interruptReader rewrites Ctrl-C as ctrlCMark + CR and notes it.
type interruptReader struct {
	r           io.Reader
	interrupted atomic.Bool
}

func (ir *interruptReader) Read(p []byte) (int, error) {
	// Half the buffer, so every Ctrl-C fits when doubled.
	buf := make([]byte, max(len(p)/2, 1))
	n, err := ir.r.Read(buf)
	out := p[:0]
	for _, b := range buf[:n] {
		if b == 3 {
			ir.interrupted.Store(true)
			out = append(out, ctrlCMark, '\r')
			continue
		}
		out = append(out, b)
	}
	return len(out), err
}

// Interactive reads statements from the terminal on stdin until Ctrl-D
// or \q. Line editing runs in raw mode; statements run in the
// terminal's normal mode, where Ctrl-C is a signal the caller routes
// to Interrupt.
func (s *Shell) Interactive(ctx context.Context, stdin *os.File, history *History) error {
	fd := int(stdin.Fd())
	in := &interruptReader{r: stdin}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, os.Stdout}, prompt)
	search := &reverseSearch{history: history, idx: -1}
	if history != nil {
		history.KeepStatements()
		t.History = searchHistory{history, search}
	}
	s.ShowCandidates = func(list string) { t.Write([]byte(list)) }
	t.AutoCompleteCallback = func(line string, pos int, key rune) (string, int, bool) {
		if l, p, ok := search.key(line, key); ok {
			return l, p, true
		}
		if key == ctrlCMark {
			return "", 0, true
		}
		return s.AutoComplete(line, pos, key)
	}
	fmt.Fprintln(s.Out, `icesql shell. Type \help for help, \q or Ctrl-D to quit.`)
	var pending strings.Builder
	for {
		if w, h, err := term.GetSize(fd); err == nil {
			t.SetSize(w, h)
		}
		old, err := term.MakeRaw(fd)
		if err != nil {
			return err
		}
		line, err := t.ReadLine()
		term.Restore(fd, old)
		line = search.accept(line)
		if in.interrupted.Swap(false) {
			// Ctrl-C at the prompt abandons the statement being typed.
			pending.Reset()
			s.SetStatementSoFar("")
			t.SetPrompt(prompt)
			fmt.Fprintln(s.Out, "^C")
			if history != nil {
				history.EndStatement()
			}
			continue
		}
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(s.Out)
			return nil
		}
		if err != nil && !errors.Is(err, term.ErrPasteIndicator) {
			return err
		}
		pending.WriteString(line)
		pending.WriteString("\n")
		pieces, rest := split.Split(pending.String(), split.Position{Line: 1, Col: 1})
		pending.Reset()
		pending.WriteString(rest)
		for _, p := range pieces {
			err := s.Run(ctx, p)
			if err == ErrQuit {
				return nil
			}
			if err != nil {
				if errors.Is(err, context.Canceled) && ctx.Err() == nil {
					fmt.Fprintln(s.Err, "ERROR: canceled")
				} else {
					fmt.Fprintf(s.Err, "ERROR: %v\n", err)
				}
			}
		}
		s.SetStatementSoFar(pending.String())
		if strings.TrimSpace(pending.String()) == "" {
			pending.Reset()
			t.SetPrompt(prompt)
			if history != nil {
				history.EndStatement()
			}
		} else {
			t.SetPrompt(continuationPrompt)
		}
	}
}
