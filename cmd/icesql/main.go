// Command icesql is an interactive SQL shell for Iceberg tables on local
// disk, through the icesql database/sql driver.
//
//	icesql [flags] [DSN] [flags]
//	icesql serve [-addr 127.0.0.1:8181] [-token T] DSN
//
// DSN is a warehouse directory (default ./warehouse, created by the first
// write), optionally with ?namespace=..&mode=ro.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/cmd/icesql/internal/format"
	"github.com/icesql/icesql/cmd/icesql/internal/shell"
	"github.com/icesql/icesql/driver"
)

const defaultDSN = "./warehouse"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main with its exit status: 0, 1 when a statement failed, 2 for
// bad usage.
func run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "serve" {
		return runServe(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("icesql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	command := fs.String("c", "", "run `SQL` (statements separated by ;) and exit")
	file := fs.String("f", "", "run the statements of `file` and exit")
	formatName := fs.String("format", "aligned", "output `format`: aligned, csv, tsv, json, markdown or expanded")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: icesql [flags] [DSN] [flags]\n\n"+
			"An SQL shell for Iceberg tables. DSN is a warehouse directory (default %s),\n"+
			"optionally with options: ./lake?namespace=sales&mode=ro\n"+
			"With -c or -f, or with standard input not a terminal, runs the statements and exits;\n"+
			"the exit status is 1 when a statement fails. Type \\help in the shell for its commands.\n\nFlags:\n", defaultDSN)
		fs.PrintDefaults()
	}
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(positional) > 1 || (*command != "" && *file != "") {
		fs.Usage()
		return 2
	}
	f, err := format.Parse(*formatName)
	if err != nil {
		fmt.Fprintln(stderr, "icesql:", err)
		return 2
	}
	dsn := defaultDSN
	if len(positional) == 1 {
		dsn = positional[0]
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	db, err := sql.Open("iceberg", dsn)
	if err != nil {
		fmt.Fprintln(stderr, "icesql:", err)
		return 1
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "icesql:", err)
		return 1
	}
	defer conn.Close()

	sh := shell.New(conn, stdout, stderr)
	defer sh.Close()
	if cfg, err := driver.ParseDSN(dsn); err == nil {
		where := cfg.CatalogFile
		if cfg.CatalogURI != "" {
			where = catalog.RedactURI(cfg.CatalogURI)
		}
		sh.Info = shell.ConnInfo{Warehouse: cfg.Warehouse, Catalog: where, CatalogName: cfg.Catalog, Namespace: cfg.Namespace, Mode: string(cfg.Mode)}
	}
	if catalogFile, what := pendingCatalog(dsn); catalogFile != "" {
		// Nothing exists until the first write creates it: say so once,
		// so a mistyped path is noticed.
		sh.AfterRun = func() {
			if _, err := os.Stat(catalogFile); err == nil {
				fmt.Fprintf(stderr, "created %s\n", what)
				sh.AfterRun = nil
			}
		}
		if *command == "" && *file == "" && term.IsTerminal(int(stdin.Fd())) {
			fmt.Fprintf(stderr, "%s does not exist yet: the first write creates it.\n", strings.ToUpper(what[:1])+what[1:])
		}
	}
	sh.Format = f
	sh.ErrIsTerminal = isTerminal(stderr)
	interactive := *command == "" && *file == "" && term.IsTerminal(int(stdin.Fd()))

	// Ctrl-C cancels the running statement; outside the interactive
	// shell, with nothing running, it stops the run.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			if !sh.Interrupt() && !interactive {
				stop()
			}
		}
	}()

	var source, text string
	switch {
	case *command != "":
		source, text = "-c", *command
	case *file != "":
		b, err := os.ReadFile(*file)
		if err != nil {
			fmt.Fprintln(stderr, "icesql:", err)
			return 1
		}
		source, text = *file, string(b)
	case interactive:
		sh.Terminal = isTerminal(stdout)
		sh.Pager = shell.DefaultPager()
		sh.Height = func() int {
			if _, h, err := term.GetSize(int(stdin.Fd())); err == nil {
				return h
			}
			return 1 << 30
		}
		history := shell.OpenHistory(historyPath())
		defer history.Close()
		if err := sh.Interactive(ctx, stdin, history); err != nil {
			fmt.Fprintln(stderr, "icesql:", err)
			return 1
		}
		return 0
	default:
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintln(stderr, "icesql:", err)
			return 1
		}
		source, text = "stdin", string(b)
	}
	if err := sh.RunScript(ctx, text, source); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// parseInterspersed parses flags placed anywhere among the arguments, as
// psql and duckdb do (icesql ./lake -c 'SELECT 1'), and returns the
// others in order. After "--" every argument is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// pendingCatalog is the absolute path of the DSN's SQLite catalog file
// when it does not exist yet (the engine creates it on the first write),
// else "".
func pendingCatalog(dsn string) (catalogFile, what string) {
	cfg, err := driver.ParseDSN(dsn)
	if err != nil || cfg.CatalogURI != "" || cfg.CatalogFile == "" {
		return "", ""
	}
	p, err := filepath.Abs(cfg.CatalogFile)
	if err != nil {
		return "", ""
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		return "", ""
	}
	// The catalog file names the warehouse only when it lies in it.
	if wh, err := filepath.Abs(cfg.Warehouse); err == nil && !cfg.ObjectStore() && filepath.Dir(p) == wh {
		return p, "warehouse " + filepath.Dir(p)
	}
	return p, "catalog " + p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// historyPath is $ICESQL_HISTORY, else ~/.icesql_history.
func historyPath() string {
	if p, ok := os.LookupEnv("ICESQL_HISTORY"); ok {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".icesql_history")
}
