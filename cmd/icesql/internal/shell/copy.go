package shell

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/icesql/icesql/cmd/icesql/internal/format"
	"github.com/icesql/icesql/cmd/icesql/internal/load"
)

// progressDelay is how long a load runs before its progress bar shows.
const progressDelay = time.Second

// copy runs `\copy table FROM 'file' [WITH (...)]`.
func (s *Shell) copy(ctx context.Context, args string) error {
	c, err := load.ParseCopy(args)
	if err != nil {
		return err
	}
	desc, err := s.query(ctx, "DESCRIBE "+c.Table)
	if err != nil {
		return err
	}
	pairs := make([][2]string, len(desc.Rows))
	for i, row := range desc.Rows {
		pairs[i][0], _ = format.Text(row[0])
		pairs[i][1], _ = format.Text(row[1])
	}
	cols, err := load.ColumnsFromDescribe(pairs)
	if err != nil {
		return fmt.Errorf("table %s: %w", c.Table, err)
	}
	r, err := load.Open(c.File, cols, c.Options)
	if err != nil {
		return err
	}
	defer r.Release()
	stop := s.progress(c.File, r)
	res, err := load.Write(ctx, s.Conn, c.Table, cols, r)
	stop()
	if err != nil {
		return err
	}
	if s.Terminal {
		fmt.Fprintf(s.Out, "COPY %d %s in %d %s\n", res.Rows, plural(res.Rows, "row"), res.Commits, plural(int64(res.Commits), "commit"))
	}
	s.cache.mu.Lock()
	s.cache.fetched = time.Time{}
	s.cache.mu.Unlock()
	return nil
}

// progress draws a bar on stderr, when it is a terminal, once the load
// has run for progressDelay; the returned func stops and erases it.
func (s *Shell) progress(name string, r *load.Reader) (stop func()) {
	if !s.ErrIsTerminal {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-done:
			return
		case <-time.After(progressDelay):
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			fmt.Fprint(s.Err, "\r"+progressLine(name, r))
			select {
			case <-done:
				fmt.Fprint(s.Err, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

func progressLine(name string, r *load.Reader) string {
	const width = 30
	n, total := r.Progress()
	frac := 0.0
	if total > 0 {
		frac = min(float64(n)/float64(total), 1)
	}
	filled := int(frac * width)
	return fmt.Sprintf("loading %s [%s%s] %3.0f%% %d rows", name, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), frac*100, r.Rows())
}
