package table_test

import (
	"context"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/catalog/sqlite"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/table"
)

// conformanceSchema covers the metric kinds the audit checks: a required
// identifier column, a partition source string, a timestamptz, a double
// with NaN and a string longer than the 16-character truncation.
var conformanceSchema = iceberg.MustSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.LongType{}, Required: true},
	iceberg.NestedField{ID: 2, Name: "category", Type: iceberg.StringType{}},
	iceberg.NestedField{ID: 3, Name: "ts", Type: iceberg.TimestampTzType{}},
	iceberg.NestedField{ID: 4, Name: "score", Type: iceberg.DoubleType{}},
	iceberg.NestedField{ID: 5, Name: "comment", Type: iceberg.StringType{}},
)

// scenarioStep is one commit of the conformance scenario and the table
// version it produced.
type scenarioStep struct {
	name string
	tbl  *table.Table
	row  sqlite.TableRecord // the catalog row after the step
}

type scenario struct {
	cat     *sqlite.Catalog
	catPath string
	env     *table.Env
	ident   table.Identifier
	steps   []scenarioStep
	// deletedFrom is the data file the row delta's position deletes target.
	deletedFrom iceberg.DataFile
	// overwritten is the data file the overwrite removed, replacement the
	// one it added.
	overwritten, replacement iceberg.DataFile
}

func (s *scenario) last() *table.Table { return s.steps[len(s.steps)-1].tbl }

// add records a step with the catalog row it left behind.
func (s *scenario) add(t testing.TB, name string, tbl *table.Table) {
	t.Helper()
	rec, err := s.cat.LoadTable(context.Background(), sqlite.Identifier(s.ident))
	if err != nil {
		t.Fatal(err)
	}
	s.steps = append(s.steps, scenarioStep{name: name, tbl: tbl, row: rec})
}

// conformanceRow is one row of conformanceSchema; nil pointers are nulls.
type conformanceRow struct {
	id       int64
	category *string
	day      int // days after 2026-03-01, timestamps at hour id%24
	score    float64
	comment  *string
}

func strp(s string) *string { return &s }

const scenarioDay0 = int64(1772323200) // 2026-03-01T00:00:00Z

func conformanceBatch(t testing.TB, schema *iceberg.Schema, rows []conformanceRow) arrow.RecordBatch {
	t.Helper()
	as, err := arrowschema.ToArrow(schema)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		if r.category == nil {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(*r.category)
		}
		us := (scenarioDay0 + int64(r.day)*86400 + (r.id%24)*3600) * 1_000_000
		b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(us))
		b.Field(3).(*array.Float64Builder).Append(r.score)
		if r.comment == nil {
			b.Field(4).AppendNull()
		} else {
			b.Field(4).(*array.StringBuilder).Append(*r.comment)
		}
		for i := 5; i < len(as.Fields()); i++ {
			b.Field(i).AppendNull() // columns added by schema evolution
		}
	}
	return b.NewRecordBatch()
}

func writeData(t testing.TB, tbl *table.Table, rows []conformanceRow) []iceberg.DataFile {
	t.Helper()
	ctx := context.Background()
	order := tbl.Metadata().DefaultSortOrderID()
	w := datafile.NewWriter(ctx, tbl.IO(), tbl.Metadata(), datafile.WriterOptions{SortOrderID: &order})
	rec := conformanceBatch(t, tbl.Schema(), rows)
	defer rec.Release()
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	files, err := w.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// buildScenario creates a partitioned, sorted table in a SQLite catalog and
// commits: two appends, an overwrite, a row delta with position deletes,
// a schema change, a property change and an append in the new schema.
func buildScenario(t testing.TB, formatVersion int) *scenario {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	catPath := filepath.Join(dir, "catalog.db")
	cat, err := sqlite.Open(ctx, catPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	s := &scenario{cat: cat, catPath: catPath, env: &table.Env{Catalog: cat.TableCatalog(), IO: &fileio.Local{NoSync: true}},
		ident: table.Identifier{Namespace: []string{"db"}, Name: "audit"}}
	schema, err := iceberg.NewSchema(0, conformanceSchema.Fields(), 1)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := iceberg.NewPartitionSpecBuilder(schema).Identity("category").Day("ts").Build()
	if err != nil {
		t.Fatal(err)
	}
	order, err := iceberg.NewSortOrderBuilder(schema).WithOrderID(1).Asc("id").Build()
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := fileio.LocalURI(filepath.Join(dir, "audit"))
	tbl, err := table.Create(ctx, s.env, s.ident, schema, loc, table.CreateOptions{Spec: spec, SortOrder: order,
		Properties: map[string]string{"commit.manifest-merge.enabled": "false", "format-version": strconv.Itoa(formatVersion)}})
	if err != nil {
		t.Fatal(err)
	}
	s.add(t, "create", tbl)
	commit := func(name string, u *table.SnapshotUpdate) {
		t.Helper()
		next, err := u.Commit(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s.add(t, name, next)
	}

	long := "a comment that is longer than sixteen characters"
	first := writeData(t, tbl, []conformanceRow{
		{1, strp("books"), 0, 1.5, strp(long)},
		{2, strp("books"), 0, math.NaN(), nil},
		{3, strp("games"), 1, -2.25, strp("short")},
		{4, nil, 1, 0, strp("\U0010FFFF\U0010FFFF" + long)},
	})
	u := s.last().NewAppend()
	for _, f := range first {
		u.AddDataFile(f)
	}
	commit("append-1", u)

	second := writeData(t, s.last(), []conformanceRow{
		{10, strp("books"), 0, 3, strp("x")},
		{11, strp("books"), 0, 4, strp("y")},
		{12, strp("books"), 0, 5, strp("z")},
		{13, strp("toys"), 2, 6, nil},
	})
	u = s.last().NewFastAppend()
	for _, f := range second {
		u.AddDataFile(f)
	}
	commit("append-2", u)

	// Overwrite the games file with a rewritten one.
	for _, f := range first {
		if f.RecordCount == 1 && f.Partition[0] == "games" {
			s.overwritten = f
		}
	}
	repl := writeData(t, s.last(), []conformanceRow{{3, strp("games"), 1, -3.5, strp("rewritten")}, {5, strp("games"), 1, 7, nil}})
	if len(repl) != 1 {
		t.Fatalf("replacement: %d files", len(repl))
	}
	s.replacement = repl[0]
	commit("overwrite", s.last().NewOverwrite().RemoveFile(s.overwritten).AddDataFile(s.replacement))

	// Position deletes on the second append's books file (v2 only: v3
	// tables take deletion vectors instead).
	for _, f := range second {
		if f.Partition[0] == "books" {
			s.deletedFrom = f
		}
	}
	if formatVersion < 3 {
		s.rowDelta(t, commit)
	}
	meta := s.last().Metadata()
	evolved, lastID, err := iceberg.NewSchemaUpdate(meta.CurrentSchema(), meta.LastColumnID()).
		AddColumn("", "note", iceberg.StringType{}, "added later").Apply()
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.last().CommitUpdates(ctx, []iceberg.Update{
		iceberg.AddSchemaUpdate{Schema: evolved, LastColumnID: lastID},
		iceberg.SetCurrentSchemaUpdate{SchemaID: -1},
	})
	if err != nil {
		t.Fatal(err)
	}
	s.add(t, "schema-change", next)
	next, err = s.last().CommitUpdates(ctx, []iceberg.Update{iceberg.SetPropertiesUpdate{Updates: map[string]string{"owner": "audit"}}})
	if err != nil {
		t.Fatal(err)
	}
	s.add(t, "property-change", next)

	third := writeData(t, s.last(), []conformanceRow{{20, strp("toys"), 2, 1, nil}})
	u = s.last().NewAppend()
	for _, f := range third {
		u.AddDataFile(f)
	}
	commit("append-3", u)
	return s
}

// rowDelta commits position deletes of rows 0 and 2 of s.deletedFrom.
func (s *scenario) rowDelta(t testing.TB, commit func(string, *table.SnapshotUpdate)) {
	t.Helper()
	ctx := context.Background()
	pw := datafile.NewPositionDeleteWriter(ctx, s.last().IO(), s.last().Metadata(), datafile.PositionDeleteOptions{})
	if err := pw.Delete(ctx, s.deletedFrom, []int64{0, 2}); err != nil {
		t.Fatal(err)
	}
	dels, err := pw.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	u := s.last().NewRowDelta().RequireDataFiles(s.deletedFrom.FilePath)
	for _, f := range dels {
		u.AddDeleteFile(f)
	}
	commit("row-delta", u)
}
