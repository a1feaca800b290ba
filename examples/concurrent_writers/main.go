// Command concurrent_writers runs two writers that append to one table at
// the same time, through two *sql.DB handles on one warehouse.
//
// With the default commit.retry.* properties, a writer that loses the
// catalog's compare-and-swap re-applies its files onto the new table and
// tries again: no insert fails, the table ends with 13 rows in 13
// snapshots (a seed plus 6 per writer) on one linear history, and the
// commit reports show how many attempts each commit needed.
//
// With commit.retry.num-retries = 0, a writer that loses the race gets
// iceberg.ErrCommitFailed, and exactly the inserts that reported success
// are in the table.
//
// Which commits lose a race depends on timing, so the example prints the
// counts that never vary, and (with -v) the attempts and failures it saw.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
)

func main() {
	verbose := flag.Bool("v", false, "print attempts per commit and the failures seen")
	flag.Parse()
	dir, err := os.MkdirTemp("", "concurrent-writers-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir, *verbose); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer, dir string, verbose bool) error {
	for _, retries := range []string{"", "0"} {
		if err := race(w, filepath.Join(dir, "retries"+retries), retries, verbose); err != nil {
			return err
		}
	}
	return nil
}

type outcome struct {
	ok     []int64
	failed []error
}

func race(w io.Writer, warehouse, retries string, verbose bool) error {
	ctx := context.Background()
	var mu sync.Mutex
	attempts := map[int]int{}
	open := func() (*sql.DB, error) {
		cfg, err := driver.ParseDSN(warehouse)
		if err != nil {
			return nil, err
		}
		cfg.MetricsReporter = iceberg.MetricsReporterFunc(func(_ context.Context, r iceberg.CommitReport) {
			if r.Err == nil && r.Table == "default.events" {
				mu.Lock()
				attempts[r.Attempts]++
				mu.Unlock()
			}
		})
		c, err := driver.NewConnector(cfg)
		if err != nil {
			return nil, err
		}
		return sql.OpenDB(c), nil
	}
	setup, err := open()
	if err != nil {
		return err
	}
	defer setup.Close()
	props := "'commit.retry.min-wait-ms' = '10'"
	if retries != "" {
		props = "'commit.retry.num-retries' = '" + retries + "'"
	}
	for _, q := range []string{
		"CREATE TABLE events (writer STRING NOT NULL, n BIGINT NOT NULL) TBLPROPERTIES (" + props + ")",
		"INSERT INTO events VALUES ('seed', 0)",
	} {
		if _, err := setup.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}

	writers := []string{"a", "b"}
	results := make([]outcome, len(writers))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, name := range writers {
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for n := int64(1); n <= 6; n++ {
				_, err := db.ExecContext(ctx, "INSERT INTO events VALUES (?, ?)", name, n)
				if err != nil {
					results[i].failed = append(results[i].failed, err)
					continue
				}
				results[i].ok = append(results[i].ok, n)
			}
		}()
	}
	close(start)
	wg.Wait()

	var rows, snapshots int
	if err := setup.QueryRowContext(ctx, "SELECT count(*) FROM events").Scan(&rows); err != nil {
		return err
	}
	if err := setup.QueryRowContext(ctx, "SELECT count(*) FROM events.snapshots").Scan(&snapshots); err != nil {
		return err
	}
	var ancestors int
	if err := setup.QueryRowContext(ctx, "SELECT count(*) FROM events.history WHERE is_current_ancestor").Scan(&ancestors); err != nil {
		return err
	}
	linear := ancestors == snapshots

	// Exactly the inserts that reported success are present.
	exact := true
	onlyCommitFailed := true
	landed := 1
	for i, name := range writers {
		var got []int64
		r, err := setup.QueryContext(ctx, "SELECT n FROM events WHERE writer = ? ORDER BY n", name)
		if err != nil {
			return err
		}
		for r.Next() {
			var n int64
			r.Scan(&n)
			got = append(got, n)
		}
		r.Close()
		if fmt.Sprint(got) != fmt.Sprint(results[i].ok) {
			exact = false
		}
		landed += len(results[i].ok)
		for _, err := range results[i].failed {
			if !errors.Is(err, iceberg.ErrCommitFailed) {
				onlyCommitFailed = false
			}
		}
	}

	if retries == "" {
		fmt.Fprintf(w, "default retries: errors=%d rows=%d snapshots=%d writer a=%d writer b=%d linear history=%v\n",
			len(results[0].failed)+len(results[1].failed), rows, snapshots, len(results[0].ok), len(results[1].ok), linear)
	} else {
		fmt.Fprintf(w, "num-retries=0: every failure is ErrCommitFailed=%v, rows = successful inserts=%v, snapshots = rows=%v, linear history=%v\n",
			onlyCommitFailed, exact && rows == landed, snapshots == rows, linear)
	}
	if verbose {
		var keys []int
		for k := range attempts {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "  commits that took %d attempt(s): %d\n", k, attempts[k])
		}
		for i, name := range writers {
			for _, err := range results[i].failed {
				fmt.Fprintf(w, "  writer %s: %v\n", name, err)
			}
		}
	}
	return nil
}
