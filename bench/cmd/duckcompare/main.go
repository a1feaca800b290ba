// Command duckcompare runs the analytic queries through icesql and
// DuckDB over the same Parquet files and prints the time ratios.
//
//	cd bench && go run ./cmd/duckcompare -rows 10000000 -reps 5
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/icesql/icesql/bench"
)

func main() {
	rows := flag.Int("rows", 1_000_000, "events rows (the issue's scale is 10000000)")
	users := flag.Int("users", 0, "distinct users (0: rows/20)")
	reps := flag.Int("reps", 5, "timed runs per engine and query (medians)")
	dir := flag.String("dir", "", "warehouse directory, kept and reused when its scale matches (default: a temporary one)")
	only := flag.String("q", "", "comma-separated words: run the queries whose names contain one")
	engines := flag.String("engines", "both", "both, icesql or duckdb")
	own := flag.Bool("duckdb-own", true, "also write DuckDB's own Parquet file of the rows and query it")
	opts := flag.String("dsn", "", "icesql DSN options, e.g. memory_limit=1GiB")
	props := flag.String("tblprops", "", "TBLPROPERTIES of the events table, e.g. \"'write.parquet.page-row-limit'='20000'\"")
	order := flag.String("order", "", "write order of the events table (ALTER TABLE ... WRITE ORDERED BY), e.g. user_id")
	threads := flag.Int("threads", 2, "DuckDB threads")
	cpuprof := flag.String("cpuprofile", "", "write a CPU profile of the timed runs")
	memprof := flag.String("memprofile", "", "write an allocation profile of the timed runs (go tool pprof -sample_index=alloc_space)")
	rss := flag.Bool("rss", false, "measure each engine's peak RSS per query in a child process")
	child := flag.String("child", "", "internal: run one query by one engine (engine:query) and exit")
	flag.Parse()

	ctx := context.Background()
	cfg := bench.Config{Dir: *dir, Scale: bench.Scale{Rows: *rows, Users: *users}, DSNOptions: *opts, TblProps: *props, WriteOrder: *order, Threads: *threads, DuckOwn: *own && *child == ""}
	if cfg.Dir == "" {
		d, err := os.MkdirTemp("", "icesql-duckcompare-")
		check(err)
		defer os.RemoveAll(d)
		cfg.Dir = d
	}
	env, err := bench.Open(ctx, cfg)
	check(err)
	defer env.Close()
	if *child != "" {
		runChild(ctx, env, *child)
		return
	}
	fmt.Printf("events: %d rows in %d data files; load average %s\n", *rows, env.Files, bench.LoadAvg())
	if env.WriteIce > 0 && env.WriteDuck > 0 {
		fmt.Printf("write: icesql AppendArrow %.2fs, DuckDB COPY TO parquet %.2fs (%.2fx)\n",
			env.WriteIce.Seconds(), env.WriteDuck.Seconds(), env.WriteIce.Seconds()/env.WriteDuck.Seconds())
	}
	engs := env.Engines(*engines != "duckdb", *engines != "icesql")
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		check(err)
		check(pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	if *memprof != "" {
		runtime.MemProfileRate = 64 << 10
		defer func() {
			f, err := os.Create(*memprof)
			check(err)
			check(pprof.Lookup("allocs").WriteTo(f, 0))
			check(f.Close())
		}()
	}
	var results []bench.Measurement
	var rssBy map[string]map[string]int64
	if *rss {
		rssBy = map[string]map[string]int64{}
	}
	failed := false
	start := time.Now()
	for _, q := range bench.Select(cfg.Scale.Queries(), *only) {
		m, err := env.Measure(ctx, q, engs, *reps)
		check(err)
		if len(m.Mismatch) > 0 {
			failed = true
		}
		results = append(results, m)
		if *rss {
			rssBy[q.Name] = map[string]int64{}
			for _, eng := range []string{bench.IceSQL, bench.Duck} {
				rssBy[q.Name][eng] = childRSS(cfg, eng, q.Name)
			}
		}
		fmt.Fprintf(os.Stderr, "%s done\n", q.Name)
	}
	fmt.Printf("%d timed runs per engine and query, interleaved; %.0fs; load average now %s\n\n", *reps, time.Since(start).Seconds(), bench.LoadAvg())
	bench.PrintTable(os.Stdout, results, rssBy)
	if failed {
		pprof.StopCPUProfile()
		fmt.Println("\nFAIL: the engines' answers differ")
		os.Exit(1)
	}
}

// childRSS runs one query by one engine in a fresh process over the same
// warehouse and returns its peak RSS in KiB.
func childRSS(cfg bench.Config, engine, query string) int64 {
	exe, err := os.Executable()
	check(err)
	cmd := exec.Command(exe, "-dir", cfg.Dir, "-rows", fmt.Sprint(cfg.Scale.Rows), "-users", fmt.Sprint(cfg.Scale.Users),
		"-dsn", cfg.DSNOptions, "-tblprops", cfg.TblProps, "-order", cfg.WriteOrder, "-threads", fmt.Sprint(cfg.Threads), "-child", engine+":"+query)
	cmd.Stderr = os.Stderr
	check(cmd.Run())
	return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

func runChild(ctx context.Context, env *bench.Env, spec string) {
	var engine, name string
	for i := range spec {
		if spec[i] == ':' {
			engine, name = spec[:i], spec[i+1:]
			break
		}
	}
	for _, q := range env.Cfg.Scale.Queries() {
		if q.Name == name {
			_, err := env.Run(ctx, engine, q)
			check(err)
			return
		}
	}
	check(fmt.Errorf("no query %q", name))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "duckcompare:", err)
		os.Exit(2)
	}
}
