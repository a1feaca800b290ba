// Command commit_anatomy shows what one Iceberg write puts on storage,
// through database/sql: a partitioned events table, the files under
// metadata/ and data/ after CREATE and after each of three appends, the
// snapshot summaries, the manifests of the current snapshot, one watched
// commit with its report and metadata log, and the commit.retry.*
// properties set and shown with SHOW TBLPROPERTIES.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
)

func main() {
	dir, err := os.MkdirTemp("", "commit-anatomy-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer, warehouse string) error {
	ctx := context.Background()
	cfg, err := driver.ParseDSN(warehouse)
	if err != nil {
		return err
	}
	var last iceberg.CommitReport
	cfg.MetricsReporter = iceberg.MetricsReporterFunc(func(_ context.Context, r iceberg.CommitReport) { last = r })
	conn, err := driver.NewConnector(cfg)
	if err != nil {
		return err
	}
	db := sql.OpenDB(conn)
	defer db.Close()

	exec := func(q string, args ...any) error {
		_, err := db.ExecContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
		return nil
	}
	tableDir := filepath.Join(warehouse, "default.db", "events")
	count := func() string {
		return fmt.Sprintf("metadata/ %d files, data/ %d files", countFiles(filepath.Join(tableDir, "metadata")), countFiles(filepath.Join(tableDir, "data")))
	}

	if err := exec(`CREATE TABLE events (id BIGINT NOT NULL, action STRING, event_ts TIMESTAMP)
		PARTITIONED BY (days(event_ts))`); err != nil {
		return err
	}
	fmt.Fprintf(w, "after CREATE:   %s\n", count())
	for i := 1; i <= 3; i++ {
		// One day of events per INSERT: one data file, one commit.
		var rows []string
		for j := 0; j < 3; j++ {
			rows = append(rows, fmt.Sprintf("(%d, 'click', '2026-09-01 %02d:00:00')", i*10+j, j))
		}
		if err := exec("INSERT INTO events VALUES " + strings.Join(rows, ", ")); err != nil {
			return err
		}
		fmt.Fprintf(w, "after append %d: %s\n", i, count())
	}

	fmt.Fprintln(w, "\nsnapshot summaries:")
	// summary is a map<string,string>; the driver returns maps as JSON.
	rows, err := db.QueryContext(ctx, `SELECT operation, summary FROM events.snapshots ORDER BY committed_at`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var op, summaryJSON string
		if err := rows.Scan(&op, &summaryJSON); err != nil {
			return err
		}
		s, err := parseSummary(summaryJSON)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s: added-data-files=%s added-records=%s total-records=%s total-data-files=%s\n",
			op, s["added-data-files"], s["added-records"], s["total-records"], s["total-data-files"])
	}
	if err := rows.Err(); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nmanifests of the current snapshot:")
	rows, err = db.QueryContext(ctx, `SELECT added_data_files_count, existing_data_files_count, deleted_data_files_count
		FROM events.manifests`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var a, e, d int64
		if err := rows.Scan(&a, &e, &d); err != nil {
			return err
		}
		fmt.Fprintf(w, "  added=%d existing=%d deleted=%d\n", a, e, d)
	}
	if err := rows.Err(); err != nil {
		return err
	}

	fmt.Fprintln(w, "\none watched commit:")
	if err := exec("INSERT INTO events VALUES (?, ?, ?)", 99, "view", time.Date(2026, 9, 2, 8, 0, 0, 0, time.UTC)); err != nil {
		return err
	}
	fmt.Fprintf(w, "  report: operation=%s attempts=%d added-data-files=%d added-records=%d sequence-number=%d\n",
		last.Operation, last.Attempts, last.AddedDataFiles, last.AddedRecords, last.SequenceNumber)
	var logEntries int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM events.metadata_log_entries").Scan(&logEntries); err != nil {
		return err
	}
	fmt.Fprintf(w, "  metadata_log_entries: %d (one per metadata.json: CREATE plus four commits)\n", logEntries)

	fmt.Fprintln(w, "\nretry properties:")
	if err := exec(`ALTER TABLE events SET TBLPROPERTIES ('commit.retry.num-retries'='10', 'commit.retry.min-wait-ms'='50')`); err != nil {
		return err
	}
	rows, err = db.QueryContext(ctx, "SHOW TBLPROPERTIES events")
	if err != nil {
		return err
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		if strings.HasPrefix(k, "commit.retry.") {
			fmt.Fprintf(w, "  %s = %s\n", k, v)
		}
	}
	return rows.Err()
}

// parseSummary reads a map<string,string> as the driver renders it: a JSON
// object, or a JSON list of {"key","value"} entries.
func parseSummary(text string) (map[string]string, error) {
	m := map[string]string{}
	if err := json.Unmarshal([]byte(text), &m); err == nil {
		return m, nil
	}
	var kvs []struct{ Key, Value string }
	if err := json.Unmarshal([]byte(text), &kvs); err != nil {
		return nil, fmt.Errorf("summary %q: %w", text, err)
	}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m, nil
}

func countFiles(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
