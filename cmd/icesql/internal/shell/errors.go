package shell

import (
	"errors"
	"fmt"
)

var (
	// ErrQuit is returned by \q.
	ErrQuit = errors.New("quit")
	// ErrUnknownMeta: a backslash command that does not exist.
	ErrUnknownMeta = errors.New("unknown meta-command")
	// ErrUsage: a meta-command with wrong arguments.
	ErrUsage = errors.New("wrong arguments")
	// ErrUnterminated: input ends inside a string or comment.
	ErrUnterminated = errors.New("input ends inside a quoted string or comment")
)

// StatementError is a failed statement with where it started.
type StatementError struct {
	Source    string // file name, "-c" or "stdin"
	Line, Col int
	Err       error
}

func (e *StatementError) Error() string {
	return fmt.Sprintf("%s:%d:%d: ERROR: %v", e.Source, e.Line, e.Col, e.Err)
}

func (e *StatementError) Unwrap() error { return e.Err }
