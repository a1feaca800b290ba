package shell

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// runningDelay is how long a statement runs on a terminal before the
// shell says it is still running.
const runningDelay = 300 * time.Millisecond

// runningMark is the note shown while a long statement runs; it is
// erased when the statement prints or ends.
const runningMark = "running… (Ctrl-C cancels)"

// indicator shows runningMark on a terminal once a statement has run
// for runningDelay. A nil *indicator shows nothing.
type indicator struct {
	once  sync.Once
	done  chan struct{}
	shown chan struct{} // closed by the goroutine when it has finished
}

// startIndicator starts the delayed note on w.
func startIndicator(w io.Writer) *indicator {
	ind := &indicator{done: make(chan struct{}), shown: make(chan struct{})}
	go func() {
		defer close(ind.shown)
		select {
		case <-ind.done:
			return
		case <-time.After(runningDelay):
		}
		fmt.Fprint(w, runningMark)
		<-ind.done
		fmt.Fprint(w, "\r\x1b[K")
	}()
	return ind
}

// stop erases the note, if shown, before the caller prints.
func (ind *indicator) stop() {
	if ind == nil {
		return
	}
	ind.once.Do(func() {
		close(ind.done)
		<-ind.shown
	})
}
