// Package pgtest starts a throwaway Postgres cluster for tests: initdb in a
// temporary directory, pg_ctl on a free loopback port, trust
// authentication, stopped when the test binary ends (Main). Tests skip
// with a message when no Postgres binaries are installed, unless
// ICESQL_REQUIRE_POSTGRES=1 (CI), where that is a failure.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

type cluster struct {
	bin, dir string
	port     int
	asUser   string // run the server as this user (initdb refuses root)
	err      error
}

var errStopped = errors.New("stopped")

var (
	once    sync.Once
	shared  *cluster
	counter atomic.Int64
)

// Main runs the tests and stops the cluster if one was started.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the server if one was started, for a TestMain that starts
// several kinds.
func Stop() {
	if shared != nil && shared.err == nil {
		shared.stop()
		shared.err = errStopped
	}
}

// Database returns the URI of a new, empty database in the shared cluster,
// starting the cluster on first use.
func Database(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared = start() })
	if shared.err != nil {
		if os.Getenv("ICESQL_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("postgres: %v", shared.err)
		}
		t.Skipf("postgres not available: %v (install postgresql, or set ICESQL_PG_BIN)", shared.err)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), counter.Add(1))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, shared.uri("postgres"))
	if err != nil {
		t.Fatalf("postgres: connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("postgres: create database: %v", err)
	}
	return shared.uri(name)
}

func (c *cluster) uri(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// binDir finds initdb and pg_ctl: ICESQL_PG_BIN, then the newest
// /usr/lib/postgresql/*/bin, then PATH.
func binDir() (string, error) {
	if d := os.Getenv("ICESQL_PG_BIN"); d != "" {
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("initdb not found")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func start() *cluster {
	c := &cluster{}
	if c.bin, c.err = binDir(); c.err != nil {
		return c
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			c.err = fmt.Errorf("running as root and there is no postgres user to run the server as")
			return c
		}
		c.asUser = u.Username
	}
	c.dir, c.err = os.MkdirTemp("", "icesql-pg-")
	if c.err != nil {
		return c
	}
	if c.asUser != "" {
		if out, err := exec.Command("chown", c.asUser, c.dir).CombinedOutput(); err != nil {
			c.err = fmt.Errorf("chown: %v: %s", err, out)
			return c
		}
	}
	data := filepath.Join(c.dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		c.err = fmt.Errorf("initdb: %v: %s", err, out)
		return c
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		c.err = err
		return c
	}
	c.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s -c fsync=off -c max_connections=200", c.port, c.dir)
	if out, err := c.run("pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(c.dir, "log"), "-w", "-t", "300", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		c.err = fmt.Errorf("pg_ctl start: %v: %s %s", err, out, log)
	}
	return c
}

func (c *cluster) run(tool string, args ...string) ([]byte, error) {
	bin := filepath.Join(c.bin, tool)
	var cmd *exec.Cmd
	if c.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.asUser, "--", bin}, args...)...)
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Dir = c.dir
	return cmd.CombinedOutput()
}

func (c *cluster) stop() {
	c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(c.dir)
}
