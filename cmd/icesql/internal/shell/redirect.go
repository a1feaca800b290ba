package shell

import (
	"io"
	"os"
)

// redirect is the state of \o: results go to a file instead of Out.
type redirect struct {
	file     *os.File
	out      io.Writer // the Out it replaced
	terminal bool
}

// setOutput runs `\o file` (results to file, created or truncated, as
// psql's) and `\o` (back to the terminal).
func (s *Shell) setOutput(path string) error {
	var err error
	if s.redir != nil {
		err = s.redir.file.Close()
		s.Out, s.Terminal = s.redir.out, s.redir.terminal
		s.redir = nil
	}
	if path == "" || err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	s.redir = &redirect{file: f, out: s.Out, terminal: s.Terminal}
	// Results in a file are neither paged nor tagged.
	s.Out, s.Terminal = f, false
	return nil
}

// Close ends a \o redirection.
func (s *Shell) Close() error { return s.setOutput("") }
