package bench

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/icesql/icesql/driver"
)

// Engine names, in the order of the table's columns.
const (
	IceSQL   = "icesql"       // database/sql rows
	IceArrow = "icesql-arrow" // Conn.Raw + QueryArrow
	Duck     = "duckdb"       // DuckDB over icesql's files
	DuckOwn  = "duckdb-own"   // DuckDB over its own file
)

// Run is one engine's answer to one query.
func (e *Env) Run(ctx context.Context, engine string, q Query) (Result, error) {
	switch engine {
	case IceSQL:
		return queryDB(ctx, e.Ice, q.SQL)
	case IceArrow:
		c, err := e.Ice.Conn(ctx)
		if err != nil {
			return Result{}, err
		}
		defer c.Close()
		var res Result
		err = c.Raw(func(dc any) error {
			rr, err := dc.(driver.ArrowConn).QueryArrow(ctx, q.SQL)
			if err != nil {
				return err
			}
			res, err = readArrow(rr)
			return err
		})
		return res, err
	case Duck:
		return queryDB(ctx, e.Duck, q.SQL)
	case DuckOwn:
		return queryDB(ctx, e.DuckOwn, q.SQL)
	}
	return Result{}, fmt.Errorf("unknown engine %q", engine)
}

func queryDB(ctx context.Context, db *sql.DB, text string) (Result, error) {
	rows, err := db.QueryContext(ctx, text)
	if err != nil {
		return Result{}, err
	}
	return readRows(rows)
}

// Engines lists the engines the environment has.
func (e *Env) Engines(withIce, withDuck bool) []string {
	var out []string
	if withIce {
		out = append(out, IceSQL, IceArrow)
	}
	if withDuck {
		out = append(out, Duck)
		if e.DuckOwn != nil {
			out = append(out, DuckOwn)
		}
	}
	return out
}

// Measurement is one query's medians per engine and whether they agree.
type Measurement struct {
	Query    Query
	Median   map[string]time.Duration
	Checksum map[string]string
	Mismatch []string // engines whose answer differs from the first engine's
	AllocMB  float64  // bytes icesql's database/sql run allocated on the Go heap
}

// Measure runs q once per engine to compare answers, then reps times
// more, interleaved (the engines' order rotates each round), and takes
// medians.
func (e *Env) Measure(ctx context.Context, q Query, engines []string, reps int) (Measurement, error) {
	m := Measurement{Query: q, Median: map[string]time.Duration{}, Checksum: map[string]string{}}
	var first Result
	for i, eng := range engines {
		var before runtime.MemStats
		if eng == IceSQL {
			runtime.ReadMemStats(&before)
		}
		res, err := e.Run(ctx, eng, q)
		if err != nil {
			return m, fmt.Errorf("%s on %s: %w", q.Name, eng, err)
		}
		if eng == IceSQL {
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			m.AllocMB = float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
		}
		m.Checksum[eng] = res.Checksum(q.Ordered)
		if i == 0 {
			first = res
		} else if d := Diff(first, res, q.Ordered); d != "" {
			m.Mismatch = append(m.Mismatch, fmt.Sprintf("%s vs %s: %s", eng, engines[0], d))
		}
	}
	times := map[string][]time.Duration{}
	for r := range reps {
		for k := range engines {
			eng := engines[(k+r)%len(engines)]
			start := time.Now()
			if _, err := e.Run(ctx, eng, q); err != nil {
				return m, fmt.Errorf("%s on %s: %w", q.Name, eng, err)
			}
			times[eng] = append(times[eng], time.Since(start))
		}
	}
	for eng, ts := range times {
		slices.Sort(ts)
		m.Median[eng] = ts[len(ts)/2]
	}
	return m, nil
}

// LoadAvg is the first three fields of /proc/loadavg ("" elsewhere).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func ratio(a, b time.Duration) string {
	if a == 0 || b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

// PrintTable writes the medians and the icesql/DuckDB ratios as a
// Markdown table.
func PrintTable(w io.Writer, ms_ []Measurement, rss map[string]map[string]int64) {
	hasOwn := false
	for _, m := range ms_ {
		if _, ok := m.Median[DuckOwn]; ok {
			hasOwn = true
		}
	}
	head := "| query | icesql ms | arrow ms | duckdb ms | icesql/duckdb | arrow/duckdb |"
	sep := "|---|---:|---:|---:|---:|---:|"
	if hasOwn {
		head += " duckdb-own ms | icesql/own |"
		sep += "---:|---:|"
	}
	head += " icesql alloc MB |"
	sep += "---:|"
	if rss != nil {
		head += " peak RSS MB icesql / duckdb |"
		sep += "---:|"
	}
	head += " answers |"
	sep += "---|"
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	for _, m := range ms_ {
		ice, arr, dk := m.Median[IceSQL], m.Median[IceArrow], m.Median[Duck]
		line := fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", m.Query.Name, ms(ice), ms(arr), ms(dk), ratio(ice, dk), ratio(arr, dk))
		if hasOwn {
			own := m.Median[DuckOwn]
			line += fmt.Sprintf(" %s | %s |", ms(own), ratio(ice, own))
		}
		line += fmt.Sprintf(" %.1f |", m.AllocMB)
		if rss != nil {
			r := rss[m.Query.Name]
			line += fmt.Sprintf(" %d / %d |", r[IceSQL]>>10, r[Duck]>>10)
		}
		answer := "agree " + m.Checksum[IceSQL]
		if len(m.Mismatch) > 0 {
			answer = "DIFFER: " + strings.Join(m.Mismatch, "; ")
		}
		line += " " + answer + " |"
		fmt.Fprintln(w, line)
	}
}
