package shell

import (
	"bufio"
	"os"
	"strings"
)

// maxHistory bounds the history kept in memory and loaded from the file.
const maxHistory = 1000

// History is a golang.org/x/term History that appends each line to a
// file, so it survives the session. A file that cannot be written just
// leaves the history in memory.
type History struct {
	lines []string // oldest first
	file  *os.File
	// statements: the interactive shell keeps a statement typed over
	// several lines as one entry; Add holds lines until EndStatement.
	statements bool
	pending    []string
}

// OpenHistory loads path (if it exists) and appends to it.
func OpenHistory(path string) *History {
	h := &History{}
	if path == "" {
		return h
	}
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if l := sc.Text(); strings.TrimSpace(l) != "" {
				h.lines = append(h.lines, l)
			}
		}
		f.Close()
		if len(h.lines) > maxHistory {
			h.lines = h.lines[len(h.lines)-maxHistory:]
		}
	}
	if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		h.file = f
	}
	return h
}

// Add records a line; blank lines and repeats of the last are dropped.
// Once KeepStatements is on, lines wait for EndStatement.
func (h *History) Add(entry string) {
	if h.statements {
		if strings.TrimSpace(entry) != "" {
			h.pending = append(h.pending, strings.TrimSpace(entry))
		}
		return
	}
	h.add(entry)
}

// KeepStatements makes the lines of one statement one entry (joined by
// blanks, so the entry recalls as one line): Add holds them until
// EndStatement.
func (h *History) KeepStatements() { h.statements = true }

// EndStatement records the held lines as one entry.
func (h *History) EndStatement() {
	if len(h.pending) == 0 {
		return
	}
	entry := strings.Join(h.pending, " ")
	h.pending = h.pending[:0]
	h.add(entry)
}

func (h *History) add(entry string) {
	if strings.TrimSpace(entry) == "" || (len(h.lines) > 0 && h.lines[len(h.lines)-1] == entry) {
		return
	}
	h.lines = append(h.lines, entry)
	if len(h.lines) > maxHistory {
		h.lines = h.lines[1:]
	}
	if h.file != nil {
		h.file.WriteString(entry + "\n")
	}
}

func (h *History) Len() int { return len(h.lines) }

// At returns entry idx, 0 being the newest.
func (h *History) At(idx int) string { return h.lines[len(h.lines)-1-idx] }

// Close closes the file.
func (h *History) Close() error {
	if h.file == nil {
		return nil
	}
	return h.file.Close()
}
