package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/pgtest"
)

func TestCreatesJDBCSchema(t *testing.T) {
	ctx := context.Background()
	c := openTest(t, Options{})
	if !c.SupportsViews() {
		t.Fatal("a fresh catalog has no iceberg_type column")
	}
	rows, err := c.pool.Query(ctx, "SELECT table_name, column_name, data_type, coalesce(character_maximum_length, 0) "+
		"FROM information_schema.columns WHERE table_name IN ('iceberg_tables', 'iceberg_namespace_properties') ORDER BY 1, ordinal_position")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var tbl, col, typ string
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&tbl, &col, &typ, &n}, func() error {
		got = append(got, tbl+"."+col+" "+typ+"("+strconv.Itoa(n)+")")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"iceberg_namespace_properties.catalog_name character varying(255)",
		"iceberg_namespace_properties.namespace character varying(255)",
		"iceberg_namespace_properties.property_key character varying(255)",
		"iceberg_namespace_properties.property_value character varying(1000)",
		"iceberg_tables.catalog_name character varying(255)",
		"iceberg_tables.table_namespace character varying(255)",
		"iceberg_tables.table_name character varying(255)",
		"iceberg_tables.metadata_location character varying(1000)",
		"iceberg_tables.previous_metadata_location character varying(1000)",
		"iceberg_tables.iceberg_type character varying(5)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("columns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A second open of the same database keeps the schema and the rows.
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	again, err := Open(ctx, c.pool.Config().ConnString(), Options{})
	must(t, err)
	defer again.Close()
	if ok, err := again.NamespaceExists(ctx, []string{"db"}); err != nil || !ok {
		t.Fatalf("reopened: %v %v", ok, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDialectLimits: what Postgres would refuse is refused first with a
// typed error, and nothing is written.
func TestDialectLimits(t *testing.T) {
	ctx := context.Background()
	c := openTest(t, Options{})
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	long := "s3://b/" + strings.Repeat("é", 1000)
	cases := []struct {
		name string
		err  error
		run  func() error
	}{
		{"location over 1000 characters", catalog.ErrInvalidArgument, func() error {
			return c.CreateTable(ctx, Identifier{Namespace: []string{"db"}, Name: "t"}, long)
		}},
		{"name over 255 characters", catalog.ErrInvalidIdentifier, func() error {
			return c.CreateTable(ctx, Identifier{Namespace: []string{"db"}, Name: strings.Repeat("n", 256)}, "m1")
		}},
		{"NUL in name", catalog.ErrInvalidIdentifier, func() error {
			return c.CreateTable(ctx, Identifier{Namespace: []string{"db"}, Name: "a\x00b"}, "m1")
		}},
		{"invalid UTF-8 in namespace", catalog.ErrInvalidIdentifier, func() error {
			return c.CreateNamespace(ctx, []string{"\xff"}, nil)
		}},
		{"property value over 1000 characters", catalog.ErrInvalidArgument, func() error {
			return c.UpdateNamespaceProperties(ctx, []string{"db"}, nil, map[string]string{"k": long})
		}},
		{"swap to a location over 1000 characters", catalog.ErrInvalidArgument, func() error {
			return c.CommitTable(ctx, Identifier{Namespace: []string{"db"}, Name: "t"}, "m1", long)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.run(); !errors.Is(err, tc.err) {
				t.Fatalf("got %v, want %v", err, tc.err)
			}
		})
	}
	tables, err := c.ListTables(ctx, []string{"db"})
	must(t, err)
	if len(tables) != 0 {
		t.Fatalf("refused writes left tables: %v", tables)
	}
	// 1,000 characters exactly is a valid location.
	ok := "s3://b/" + strings.Repeat("é", 993)
	must(t, c.CreateTable(ctx, Identifier{Namespace: []string{"db"}, Name: "t"}, ok))
}

// TestResolveLostReply: a swap whose connection is lost is resolved by
// ending the session that sent it and reading the pointer back.
func TestResolveLostReply(t *testing.T) {
	ctx := context.Background()
	c := openTest(t, Options{})
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	ident := Identifier{Namespace: []string{"db"}, Name: "t"}
	must(t, c.CreateTable(ctx, ident, "m1"))
	lost := errors.New("connection reset")
	swap := []catalog.TableCommit{{Ident: ident, Expected: "m1", New: "m2"}}

	t.Run("sent but not committed", func(t *testing.T) {
		// A session holds the swap in an open transaction, as a server
		// that received it but never got (or finished) the COMMIT.
		conn, err := c.pool.Acquire(ctx)
		must(t, err)
		defer conn.Release()
		defer conn.Conn().Close(ctx) // its session is ended below
		f := fenceOf(conn)
		tx, err := conn.Begin(ctx)
		must(t, err)
		if _, err := tx.Exec(ctx, swapSQL+c.onlyTables(), c.swapArgs(swap[0])...); err != nil {
			t.Fatal(err)
		}
		err = c.resolveLost(ctx, f, swap, c.tableKind(), lost)
		if !errors.Is(err, iceberg.ErrCommitFailed) || errors.Is(err, iceberg.ErrCommitStateUnknown) {
			t.Fatalf("got %v, want a plain commit failure", err)
		}
		rec, err := c.LoadTable(ctx, ident)
		must(t, err)
		if rec.MetadataLocation != "m1" {
			t.Fatalf("the ended session's swap took effect: %+v", rec)
		}
	})
	t.Run("committed", func(t *testing.T) {
		conn, err := c.pool.Acquire(ctx)
		must(t, err)
		defer conn.Release()
		defer conn.Conn().Close(ctx) // its session is ended below
		f := fenceOf(conn)
		if _, err := conn.Exec(ctx, swapSQL+c.onlyTables(), c.swapArgs(swap[0])...); err != nil {
			t.Fatal(err)
		}
		if err := c.resolveLost(ctx, f, swap, c.tableKind(), lost); err != nil {
			t.Fatalf("a swap that took effect resolved as %v", err)
		}
	})
	t.Run("moved by another writer", func(t *testing.T) {
		must(t, c.CommitTable(ctx, ident, "m2", "m3"))
		must(t, c.CommitTable(ctx, ident, "m3", "m4"))
		conn, err := c.pool.Acquire(ctx)
		must(t, err)
		f := fenceOf(conn)
		conn.Conn().Close(ctx)
		conn.Release()
		err = c.resolveLost(ctx, f, []catalog.TableCommit{{Ident: ident, Expected: "m2", New: "x"}}, c.tableKind(), lost)
		if !errors.Is(err, iceberg.ErrCommitStateUnknown) {
			t.Fatalf("got %v, want the outcome unknown", err)
		}
	})
}

func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	c := openTest(t, Options{})
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	ro, err := Open(ctx, c.pool.Config().ConnString(), Options{ReadOnly: true})
	must(t, err)
	defer ro.Close()
	if ok, err := ro.NamespaceExists(ctx, []string{"db"}); err != nil || !ok {
		t.Fatalf("read: %v %v", ok, err)
	}
	if err := ro.CreateNamespace(ctx, []string{"x"}, nil); !errors.Is(err, catalog.ErrReadOnly) {
		t.Fatalf("write: %v", err)
	}
}

func TestOpenHidesPassword(t *testing.T) {
	_, err := Open(context.Background(), "postgres://u:hunter2@127.0.0.1:1/db?connect_timeout=1&sslmode=disable", Options{})
	if err == nil {
		t.Fatal("opened a server that does not exist")
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error shows the password: %v", err)
	}
}

// A commit behind another session's row lock waits only lock_timeout, and
// fails with catalog.ErrBusy (a retryable commit failure), changing
// nothing.
func TestLockTimeoutIsBusy(t *testing.T) {
	ctx := context.Background()
	uri := pgtest.Database(t)
	c, err := Open(ctx, uri, Options{LockTimeout: 200 * time.Millisecond})
	must(t, err)
	defer c.Close()
	must(t, c.CreateNamespace(ctx, []string{"db"}, nil))
	ident := Identifier{Namespace: []string{"db"}, Name: "t"}
	must(t, c.CreateTable(ctx, ident, "m1"))
	// Another session (another process, or Spark) holds the row.
	other, err := pgx.Connect(ctx, uri)
	must(t, err)
	defer other.Close(ctx)
	tx, err := other.Begin(ctx)
	must(t, err)
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT 1 FROM iceberg_tables WHERE table_name = 't' FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	err = c.CommitTable(ctx, ident, "m1", "m2")
	var pe *pgconn.PgError
	if !errors.Is(err, catalog.ErrBusy) || !errors.Is(err, iceberg.ErrCommitFailed) || errors.Is(err, iceberg.ErrCommitStateUnknown) ||
		!errors.As(err, &pe) || pe.Code != "55P03" {
		t.Fatalf("commit behind a held lock: %v, want catalog.ErrBusy and iceberg.ErrCommitFailed over SQLSTATE 55P03", err)
	}
	_, err = c.DropTable(ctx, ident)
	if !errors.Is(err, catalog.ErrBusy) {
		t.Fatalf("drop behind a held lock: %v, want catalog.ErrBusy", err)
	}
	must(t, tx.Rollback(ctx))
	rec, err := c.LoadTable(ctx, ident)
	must(t, err)
	if rec.MetadataLocation != "m1" {
		t.Fatalf("pointer moved to %q", rec.MetadataLocation)
	}
}
