package interop

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

// iceCatalog gives the commit protocol (table.Catalog) the SQLite catalog's
// pointer operations; the main module keeps its own adapter unexported.
type iceCatalog struct{ c *sqlite.Catalog }

var _ table.Catalog = iceCatalog{}

func toSQLiteIdent(id table.Identifier) sqlite.Identifier {
	return sqlite.Identifier{Namespace: id.Namespace, Name: id.Name}
}

func (a iceCatalog) CurrentMetadataLocation(ctx context.Context, ident table.Identifier) (string, error) {
	rec, err := a.c.LoadTable(ctx, toSQLiteIdent(ident))
	if err != nil {
		return "", err
	}
	return rec.MetadataLocation, nil
}

func (a iceCatalog) CurrentMetadataLocations(ctx context.Context, idents []table.Identifier) ([]string, error) {
	ids := make([]sqlite.Identifier, len(idents))
	for i, id := range idents {
		ids[i] = toSQLiteIdent(id)
	}
	recs, err := a.c.LoadTables(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.MetadataLocation
	}
	return out, nil
}

func (a iceCatalog) Swap(ctx context.Context, ident table.Identifier, expected, next string) error {
	return a.c.CommitTable(ctx, toSQLiteIdent(ident), expected, next)
}

func (a iceCatalog) SwapAll(ctx context.Context, swaps []table.Swap) error {
	commits := make([]sqlite.TableCommit, len(swaps))
	for i, s := range swaps {
		commits[i] = sqlite.TableCommit{Ident: toSQLiteIdent(s.Ident), Expected: s.Expected, New: s.Next}
	}
	return a.c.CommitTables(ctx, commits)
}

func (a iceCatalog) Create(ctx context.Context, ident table.Identifier, metadataLocation string) error {
	return a.c.CreateTable(ctx, toSQLiteIdent(ident), metadataLocation)
}

// iceSide is icesql's view of one catalog file and warehouse directory.
type iceSide struct {
	cat       *sqlite.Catalog
	env       *table.Env
	warehouse string
}

// openIce opens (or creates) the catalog file with icesql's SQLite catalog.
// noSync skips fsync of written files (benchmarks that say so only).
func openIce(tb testing.TB, file, warehouse string, noSync bool) *iceSide {
	tb.Helper()
	cat, err := sqlite.Open(context.Background(), file, sqlite.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cat.Close() })
	return &iceSide{
		cat:       cat,
		env:       &table.Env{Catalog: iceCatalog{cat}, IO: &fileio.Local{NoSync: noSync}},
		warehouse: warehouse,
	}
}

// createTable creates ns.name (and ns if needed) at <warehouse>/ns/name.
func (s *iceSide) createTable(tb testing.TB, ident table.Identifier, schema *iceberg.Schema, spec *iceberg.PartitionSpec, props map[string]string) *table.Table {
	tb.Helper()
	ctx := context.Background()
	if ok, err := s.cat.NamespaceExists(ctx, ident.Namespace); err != nil {
		tb.Fatal(err)
	} else if !ok {
		if err := s.cat.CreateNamespace(ctx, ident.Namespace, nil); err != nil {
			tb.Fatal(err)
		}
	}
	loc, err := fileio.LocalURI(filepath.Join(append([]string{s.warehouse}, append(ident.Namespace, ident.Name)...)...))
	if err != nil {
		tb.Fatal(err)
	}
	t, err := table.Create(ctx, s.env, ident, schema, loc, table.CreateOptions{Spec: spec, Properties: props})
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func (s *iceSide) load(tb testing.TB, ident table.Identifier) *table.Table {
	tb.Helper()
	t, err := table.Load(context.Background(), s.env, ident)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// iceWrite writes records through datafile.Writer without committing.
func iceWrite(ctx context.Context, t *table.Table, recs ...arrow.RecordBatch) ([]iceberg.DataFile, error) {
	w := datafile.NewWriter(ctx, t.IO(), t.Metadata(), datafile.WriterOptions{})
	for _, r := range recs {
		if err := w.Write(ctx, r); err != nil {
			w.Abort(context.WithoutCancel(ctx))
			return nil, err
		}
	}
	return w.Close(ctx)
}

// iceAppend writes records as data files and commits them in one append.
func iceAppend(ctx context.Context, t *table.Table, recs ...arrow.RecordBatch) (*table.Table, error) {
	files, err := iceWrite(ctx, t, recs...)
	if err != nil {
		return nil, err
	}
	u := t.NewAppend()
	for _, f := range files {
		u = u.AddDataFile(f)
	}
	return u.OwnFiles().Commit(ctx)
}

func opener(ctx context.Context, fio fileio.FileIO) scan.Opener {
	return func(path string) (io.ReadCloser, error) { return fio.Open(ctx, path) }
}

// icePlan plans a full scan of the current snapshot (nil when empty).
func icePlan(ctx context.Context, t *table.Table) ([]scan.FileScanTask, error) {
	meta := t.Metadata()
	snap := meta.CurrentSnapshot()
	if snap == nil {
		return nil, nil
	}
	tasks, _, err := scan.Plan(ctx, opener(ctx, t.IO()), meta, snap.SnapshotID, nil, scan.Options{})
	return tasks, err
}

// iceScan reads every live row of the table's current snapshot; each
// record is passed to fn and released afterwards.
func iceScan(ctx context.Context, t *table.Table, opts datafile.ReadOptions, fn func(task scan.FileScanTask, rec arrow.RecordBatch) error) error {
	tasks, err := icePlan(ctx, t)
	if err != nil {
		return err
	}
	for _, task := range tasks {
		it, err := datafile.ReadTask(ctx, t.IO(), t.Metadata(), task, t.Schema(), opts)
		if err != nil {
			return err
		}
		for {
			rec, err := it.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				it.Close()
				return err
			}
			err = fn(task, rec)
			rec.Release()
			if err != nil {
				it.Close()
				return err
			}
		}
		it.Close()
	}
	return nil
}

// iceRows reads the table's current rows with icesql, rendered and sorted.
func iceRows(tb testing.TB, t *table.Table) []string {
	tb.Helper()
	rows, err := iceRowsErr(t)
	if err != nil {
		tb.Fatal(err)
	}
	return rows
}

func iceRowsErr(t *table.Table) ([]string, error) {
	return iceRowsOpts(t, datafile.ReadOptions{})
}

func iceRowsOpts(t *table.Table, opts datafile.ReadOptions) ([]string, error) {
	var rows []string
	err := iceScan(context.Background(), t, opts, func(_ scan.FileScanTask, rec arrow.RecordBatch) error {
		rows = append(rows, renderRecord(rec)...)
		return nil
	})
	return sortRows(rows), err
}

func identString(id table.Identifier) string {
	return strings.Join(append(append([]string{}, id.Namespace...), id.Name), ".")
}
