package shell

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/icesql/icesql/cmd/icesql/internal/format"
	"github.com/icesql/icesql/cmd/icesql/internal/load"
	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/sqlexec/export"
)

// progressDelay is how long a load runs before its progress bar shows.
const progressDelay = time.Second

// copy runs `\copy table FROM 'file' [WITH (...)]`.
func (s *Shell) copy(ctx context.Context, args string) error {
	c, err := load.ParseCopy(args)
	if err != nil {
		return err
	}
	if c.To {
		return s.copyTo(ctx, c)
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

// copyTo runs `\copy (query) TO file` and `\copy table TO file`: the
// query runs through the connection and the shell writes the file, as
// psql's \copy does, replacing an existing file (OVERWRITE false keeps
// it). The file STDOUT is the shell's output.
func (s *Shell) copyTo(ctx context.Context, c *load.Copy) error {
	opts := export.DefaultOptions()
	opts.Overwrite = true
	var csvOnly []string
	for _, o := range c.Raw {
		if err := opts.Set(o.Name, o.Value, o.HasValue); err != nil {
			return fmt.Errorf("%w: %w", ErrUsage, err)
		}
		if export.IsCSVOnly(o.Name) {
			csvOnly = append(csvOnly, o.Name)
		}
	}
	toStdout := strings.EqualFold(c.File, "stdout")
	if toStdout && opts.Format == "" {
		opts.Format = export.CSV
	}
	if err := opts.Normalize(c.File); err != nil {
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	if err := opts.CheckFormatOptions(csvOnly); err != nil {
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	q := c.Query
	if q == "" {
		q = "SELECT * FROM " + c.Table
	}
	var n int64
	err := s.Conn.Raw(func(dc any) error {
		ac, ok := dc.(driver.ArrowConn)
		if !ok {
			return fmt.Errorf("the connection has no Arrow results")
		}
		r, err := ac.QueryArrow(ctx, q)
		if err != nil {
			return err
		}
		defer r.Release()
		if toStdout {
			n, err = export.Write(ctx, s.Out, export.FromReader(r), opts)
		} else {
			n, err = export.WriteFile(ctx, c.File, export.FromReader(r), opts)
		}
		return err
	})
	if err != nil {
		return err
	}
	if s.Terminal && !toStdout {
		fmt.Fprintf(s.Out, "COPY %d %s\n", n, plural(n, "row"))
	}
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
