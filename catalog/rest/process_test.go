package rest_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/catalog/postgres"
	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/internal/pgtest"
	"github.com/icesql/icesql/server/rest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const (
	envWriterDSN = "ICESQL_REST_WRITER_DSN"
	envWriterID  = "ICESQL_REST_WRITER_ID"
	writerRows   = 10
)

// TestProcessesThroughOneServer: writer processes of their own, each with
// its own engine, append through one REST server at once, with SQLite and
// with Postgres behind the server; every row lands exactly once and the
// history stays linear.
func TestProcessesThroughOneServer(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			var cat catalog.Catalog
			var err error
			if backend == "sqlite" {
				cat, err = sqlite.Open(ctx, filepath.Join(dir, "catalog.db"), sqlite.Options{})
			} else {
				cat, err = postgres.Open(ctx, pgtest.Database(t), postgres.Options{})
			}
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			wh, err := fileio.LocalURI(dir)
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(rest.New(cat, &fileio.Local{}, rest.Options{Warehouse: wh}))
			defer hs.Close()
			dsn := dir + "?catalog_uri=" + url.QueryEscape(hs.URL)
			db, err := sql.Open("iceberg", dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			// A REST catalog cannot lock, so commits stay optimistic: a
			// writer whose base went stale gets a 409 and retries. Three
			// processes committing back to back need more attempts than
			// the default five, as they would with Java's client.
			exec(t, db, "CREATE TABLE t (w INT, i INT) TBLPROPERTIES ("+
				"'commit.retry.num-retries'='30', 'commit.retry.min-wait-ms'='5', 'commit.retry.max-wait-ms'='300')")

			const writers = 3
			var cmds []*writerProc
			for w := 0; w < writers; w++ {
				c := startWriter(t, dsn, w)
				cmds = append(cmds, c)
			}
			for w, c := range cmds {
				if err := c.Wait(); err != nil {
					t.Errorf("writer %d: %v\n%s", w, err, c.out)
				}
			}
			if n := count(t, db, "SELECT count(*) FROM t"); n != writers*writerRows {
				t.Fatalf("%d rows, want %d", n, writers*writerRows)
			}
			if n := count(t, db, "SELECT count(DISTINCT w * 100 + i) FROM t"); n != writers*writerRows {
				t.Fatalf("%d distinct rows, want %d", n, writers*writerRows)
			}
			if n := count(t, db, "SELECT count(*) FROM t.history WHERE is_current_ancestor"); n != writers*writerRows {
				t.Fatalf("%d snapshots in the current history, want %d", n, writers*writerRows)
			}
		})
	}
}

type writerProc struct {
	*osexec.Cmd
	out *lockedBuffer
}

func startWriter(t *testing.T, dsn string, w int) *writerProc {
	t.Helper()
	cmd := osexec.Command(os.Args[0], "-test.run=^TestRESTWriterProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envWriterDSN+"="+dsn, envWriterID+"="+strconv.Itoa(w))
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &writerProc{cmd, out}
}

// TestRESTWriterProcess is the body of one writer process of
// TestProcessesThroughOneServer.
func TestRESTWriterProcess(t *testing.T) {
	dsn := os.Getenv(envWriterDSN)
	if dsn == "" {
		t.Skip("run by TestProcessesThroughOneServer")
	}
	db, err := sql.Open("iceberg", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := os.Getenv(envWriterID)
	for i := 0; i < writerRows; i++ {
		if _, err := db.Exec(fmt.Sprintf("INSERT INTO t VALUES (%s, %d)", w, i)); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
