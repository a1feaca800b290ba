package sqlite

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

// Two OS processes append 6 one-file commits each to one table through one
// catalog file, with retries: every commit lands, history stays linear.
func TestTwoProcessesAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	ctx := context.Background()
	dir := t.TempDir()
	catFile := filepath.Join(dir, "catalog.db")
	env, closeFn := openEnv(t, catFile)
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true})
	loc, _ := fileio.LocalURI(filepath.Join(dir, "db.db", "t"))
	if err := openCatalog(t, catFile).CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	id := table.Identifier{Namespace: []string{"db"}, Name: "t"}
	tbl, err := table.Create(ctx, env, id, schema, loc, table.CreateOptions{Properties: map[string]string{
		"commit.retry.min-wait-ms": "5", "commit.retry.max-wait-ms": "200", "commit.retry.num-retries": "20"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.NewAppend().AddDataFile(fakeFile(t, tbl, "seed")).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	closeFn()

	var cmds []*exec.Cmd
	for w := 0; w < 2; w++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAppendProcessHelper$")
		cmd.Env = append(os.Environ(), "ICESQL_APPEND_HELPER="+catFile, "ICESQL_APPEND_WRITER="+strconv.Itoa(w))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	env, closeFn = openEnv(t, catFile)
	defer closeFn()
	final, err := table.Load(ctx, env, id)
	if err != nil {
		t.Fatal(err)
	}
	snaps := final.Metadata().Snapshots()
	if len(snaps) != 13 {
		t.Fatalf("%d snapshots, want 13", len(snaps))
	}
	n := 0
	for range final.Metadata().Ancestors(final.Metadata().CurrentSnapshotID()) {
		n++
	}
	if n != 13 {
		t.Fatalf("linear history has %d snapshots, want 13", n)
	}
	if got := final.Metadata().CurrentSnapshot().Summary["total-data-files"]; got != "13" {
		t.Fatalf("total-data-files = %s, want 13", got)
	}
}

// TestAppendProcessHelper is the body of one writer process.
func TestAppendProcessHelper(t *testing.T) {
	catFile := os.Getenv("ICESQL_APPEND_HELPER")
	if catFile == "" {
		t.Skip("helper process only")
	}
	w := os.Getenv("ICESQL_APPEND_WRITER")
	ctx := context.Background()
	env, closeFn := openEnv(t, catFile)
	defer closeFn()
	id := table.Identifier{Namespace: []string{"db"}, Name: "t"}
	for i := 0; i < 6; i++ {
		tbl, err := table.Load(ctx, env, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.NewAppend().AddDataFile(fakeFile(t, tbl, fmt.Sprintf("w%s-%d", w, i))).Commit(ctx); err != nil {
			t.Fatalf("writer %s commit %d: %v", w, i, err)
		}
	}
}

func openCatalog(t *testing.T, file string) *Catalog {
	t.Helper()
	c, err := Open(context.Background(), file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func openEnv(t *testing.T, file string) (*table.Env, func()) {
	t.Helper()
	c, err := Open(context.Background(), file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &table.Env{Catalog: c.TableCatalog(), IO: &fileio.Local{}}, func() { c.Close() }
}

// fakeFile creates a small file and describes it as a data file; the
// commit protocol makes it durable but never reads it.
func fakeFile(t *testing.T, tbl *table.Table, name string) iceberg.DataFile {
	t.Helper()
	path := tbl.DataDir() + "/" + name + ".parquet"
	out, err := tbl.IO().Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	out.Write([]byte("PAR1"))
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return iceberg.DataFile{Content: iceberg.ContentData, FilePath: path,
		FileFormat: iceberg.FormatParquet, SpecID: tbl.Spec().ID, RecordCount: 1, FileSizeInBytes: 4}
}
