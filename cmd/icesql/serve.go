package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/server/rest"
	"github.com/icesql/icesql/sqlexec"
)

// runServe is `icesql serve [-addr host:port] [-token T] DSN`: the DSN's
// catalog and warehouse served as an Iceberg REST catalog until SIGINT or
// SIGTERM, then shut down gracefully (requests in flight finish).
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("icesql serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8181", "listen on `host:port`")
	token := fs.String("token", "", "require \"Authorization: Bearer `TOKEN`\" (required unless addr is loopback); also read from ICESQL_SERVE_TOKEN")
	prefix := fs.String("prefix", "", "serve the routes under /v1/`PREFIX`/...")
	vend := fs.Bool("vend-credentials", false, "send the DSN's storage properties (s3.endpoint, keys, client.region) to clients: in /v1/config defaults and every load-table config, so clients need no storage credentials of their own")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: icesql serve [flags] DSN\n\n"+
			"Serves the DSN's catalog and warehouse as an Iceberg REST catalog\n"+
			"(DuckDB, Spark, Trino, PyIceberg, iceberg-go attach to http://ADDR).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if *token == "" {
		*token = os.Getenv("ICESQL_SERVE_TOKEN")
	}
	if err := checkServeAddr(*addr, *token); err != nil {
		fmt.Fprintln(stderr, "icesql serve:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, fs.Arg(0), *addr, rest.Options{Token: *token, Prefix: *prefix}, *vend, stdout); err != nil {
		fmt.Fprintln(stderr, "icesql serve:", err)
		return 1
	}
	return 0
}

// checkServeAddr refuses to expose the catalog beyond this machine
// without a token.
func checkServeAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", addr, err)
	}
	if token != "" || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-addr %s is not a loopback address: give -token (or ICESQL_SERVE_TOKEN) so only holders of the token reach the catalog", addr)
}

// serve runs the server until ctx ends; vend sends the DSN's storage
// properties to clients.
func serve(ctx context.Context, dsn, addr string, opts rest.Options, vend bool, stdout io.Writer) error {
	cfg, err := driver.ParseDSN(dsn)
	if err != nil {
		return err
	}
	eng, err := sqlexec.Open(ctx, sqlexec.Config{Warehouse: cfg.Warehouse, CatalogFile: cfg.CatalogFile, CatalogURI: cfg.CatalogURI,
		CatalogName: cfg.Catalog, Namespace: cfg.Namespace, ReadOnly: cfg.Mode == driver.ModeReadOnly, FileIO: cfg.FileIO,
		AllowExternalLocations: cfg.AllowExternalLocations})
	if err != nil {
		return err
	}
	defer eng.Close()
	if vend {
		opts.Defaults = withStorage(opts.Defaults, cfg.FileIO)
		opts.TableConfig = withStorage(opts.TableConfig, cfg.FileIO)
	}
	opts.Warehouse = cfg.Warehouse
	if !cfg.ObjectStore() {
		if opts.Warehouse, err = fileio.LocalURI(cfg.Warehouse); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: rest.New(eng.Catalog(), eng.Env().IO, opts), ReadHeaderTimeout: 30 * time.Second}
	fmt.Fprintf(stdout, "icesql: serving the Iceberg REST catalog of %s at http://%s\n", cfg.Warehouse, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdown)
	<-done
	fmt.Fprintln(stdout, "icesql: stopped")
	return err
}

// withStorage adds the storage properties (s3.*, client.*) of props to m.
func withStorage(m, props map[string]string) map[string]string {
	out := fileio.StorageProperties(props)
	for k, v := range m {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out
}
