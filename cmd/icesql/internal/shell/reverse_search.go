package shell

import (
	"strings"
	"unicode"

	"golang.org/x/term"
)

// ctrlR starts a reverse incremental search of the history, as in
// readline; a second Ctrl-R finds the next older match.
const ctrlR = 0x12

// reverseSearch is readline's Ctrl-R on golang.org/x/term, which has no
// such mode and lets the caller see only keys it does not handle itself.
// The search therefore lives in the line: while searching, the line reads
// "(reverse-i-search)`query': match", and the prefix is taken off again
// when the line is entered, completed with Tab or edited with a key the
// terminal handles itself (arrows, Backspace).
type reverseSearch struct {
	history *History
	active  bool
	query   string
	last    string // the query of the previous search, reused by Ctrl-R Ctrl-R
	idx     int    // history index of the match, 0 the newest; -1 none yet
	match   string
	failed  bool
	// accepted remembers the last line stripped by accept, so that the
	// terminal's history and the shell see the same text.
	acceptedRaw, accepted string
}

func (r *reverseSearch) prefix(failed bool) string {
	p := "(reverse-i-search)`" + r.query + "': "
	if failed {
		p = "(failed " + p[1:]
	}
	return p
}

// line is what the terminal shows while searching.
func (r *reverseSearch) line() string { return r.prefix(r.failed) + r.match }

// key handles one key the terminal passed on; ok reports whether it was
// consumed (newLine and pos are then the line to show).
func (r *reverseSearch) key(line string, key rune) (newLine string, pos int, ok bool) {
	if !r.active {
		if key != ctrlR || r.history == nil {
			return "", 0, false
		}
		r.active, r.query, r.idx, r.match, r.failed = true, "", -1, line, false
		l := r.line()
		return l, len(l), true
	}
	if line != r.line() {
		// Edited by a key the terminal handles itself: keep the edit,
		// without the prefix, and stop searching.
		l := r.strip(line)
		r.active = false
		return l, len(l), true
	}
	switch {
	case key == ctrlR:
		if r.query == "" {
			r.query = r.last
		}
		r.find(r.idx + 1)
	case key == '\t':
		r.active = false
		return r.match, len(r.match), true
	case key == ctrlCMark:
		r.active = false
		return "", 0, false
	case unicode.IsPrint(key):
		r.query += string(key)
		r.find(max(r.idx, 0))
	default:
		// Any other key ends the search on the match.
		r.active = false
		return r.match, len(r.match), true
	}
	l := r.line()
	return l, len(l), true
}

// find looks for the query from history index from towards older
// entries; on failure the match stays and the prompt says so.
func (r *reverseSearch) find(from int) {
	r.last = r.query
	for i := from; i < r.history.Len(); i++ {
		if e := r.history.At(i); strings.Contains(e, r.query) {
			r.idx, r.match, r.failed = i, e, false
			return
		}
	}
	r.failed = true
}

// strip takes the search prefix off a line, if it has one.
func (r *reverseSearch) strip(line string) string {
	for _, failed := range []bool{false, true} {
		if rest, ok := strings.CutPrefix(line, r.prefix(failed)); ok {
			return rest
		}
	}
	return line
}

// accept ends a search on an entered line and returns the line without
// the prefix. It may be called twice for one line (the terminal's
// history, then the shell) and answers the same both times.
func (r *reverseSearch) accept(line string) string {
	if r.active {
		r.active = false
		r.acceptedRaw, r.accepted = line, r.strip(line)
		return r.accepted
	}
	if line == r.acceptedRaw && r.acceptedRaw != "" {
		r.acceptedRaw = ""
		return r.accepted
	}
	return line
}

// searchHistory records entered lines without a search prefix.
type searchHistory struct {
	*History
	search *reverseSearch
}

func (h searchHistory) Add(entry string) { h.History.Add(h.search.accept(entry)) }

var _ term.History = searchHistory{}
