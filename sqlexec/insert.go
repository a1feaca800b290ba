package sqlexec

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// insertTarget is the table an INSERT writes.
func insertTarget(ins *ast.InsertStmt, refs parser.RefMap) (*parser.TableRef, error) {
	if ins.Table == nil || ins.Table.TableRefs == nil {
		return nil, invalidf("INSERT without a table")
	}
	ts, ok := ins.Table.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, invalidf("INSERT into a join")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, invalidf("INSERT into a subquery")
	}
	ref := refs[tn]
	if ref == nil {
		ref = &parser.TableRef{Parts: []string{tn.Name.O}, Table: tn.Name.O}
		if tn.Schema.O != "" {
			ref.Namespace = strings.Split(tn.Schema.O, ".")
			ref.Parts = append(append([]string(nil), ref.Namespace...), tn.Name.O)
		}
	}
	if ref.MetadataTable != "" {
		return nil, invalidf("cannot write to metadata table %s", ref.MetadataTable)
	}
	if ref.VersionAsOf != nil || ref.TimestampAsOf != nil || ref.Tag != "" {
		return nil, invalidf("cannot write to a table version")
	}
	return ref, nil
}

func (s *Session) insert(ctx context.Context, w *parser.TiDBStmt, ins *ast.InsertStmt) (Result, error) {
	if err := s.checkWritable(); err != nil {
		return Result{}, err
	}
	switch {
	case ins.IsReplace:
		return Result{}, noIcebergFeature("enforced keys to replace rows by", "REPLACE INTO; use MERGE INTO")
	case len(ins.OnDuplicate) > 0:
		return Result{}, notSupported("ON DUPLICATE KEY UPDATE")
	case ins.Setlist:
		return Result{}, notSupported("INSERT ... SET")
	case len(ins.PartitionNames) > 0:
		return Result{}, notSupported("INSERT ... PARTITION")
	}
	ref, err := insertTarget(ins, w.Refs)
	if err != nil {
		return Result{}, err
	}
	t, err := s.loadTable(ctx, ref)
	if err != nil {
		return Result{}, err
	}
	it, err := s.insertSource(ctx, t, ins, w.Refs)
	if err != nil {
		return Result{}, err
	}
	defer it.Close()
	return s.appendRows(ctx, t, ref.Branch, it)
}

// appendRows writes an iterator's rows as data files and appends them to
// the table (or branch) in one commit, staged inside a transaction.
func (s *Session) appendRows(ctx context.Context, t *table.Table, branch string, it exec.RecordIterator) (Result, error) {
	files, n, err := s.writeFiles(ctx, t, it)
	if err != nil {
		return Result{}, err
	}
	if len(files) == 0 {
		return Result{}, nil
	}
	u := t.NewAppend()
	if branch != "" {
		u = u.ToBranch(branch)
	}
	for _, f := range files {
		u = u.AddDataFile(f)
	}
	if _, err := s.stage(ctx, u.OwnFiles()); err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: n}, nil
}

// insertSource is the rows an INSERT writes, in the table's column order
// and Arrow types.
func (s *Session) insertSource(ctx context.Context, t *table.Table, ins *ast.InsertStmt, refs parser.RefMap) (exec.RecordIterator, error) {
	if slot := slotFrom(ctx, ins); slot != nil && ins.Select == nil {
		if p := s.cachedInsertValues(ctx, slot, t, ins); p != nil {
			it, err := planner.Build(ctx, planner.NewEvalContext(ctx, nil), p)
			return it, writeError(err)
		}
	}
	target, err := arrowSchemaOf(t)
	if err != nil {
		return nil, err
	}
	if ins.Select == nil {
		p, err := planner.BindInsertValues(ctx, ins, target)
		if err != nil {
			return nil, err
		}
		it, err := planner.Build(ctx, planner.NewEvalContext(ctx, nil), p)
		return it, writeError(err)
	}
	q, err := s.bindQuery(ctx, ins.Select, refs)
	if err != nil {
		return nil, err
	}
	var cols []string
	for _, c := range ins.Columns {
		cols = append(cols, c.Name.O)
	}
	p, err := castToTarget(q.plan, target, cols)
	if err != nil {
		return nil, err
	}
	return planner.Build(ctx, planner.NewEvalContext(ctx, nil), p)
}

// castToTarget projects a query's columns onto the target columns (all in
// order, or the named ones with NULL for the rest), casting each to the
// target type by SQL's store-assignment rules.
func castToTarget(p planner.Plan, target *arrow.Schema, names []string) (planner.Plan, error) {
	in := p.Columns()
	pos := make([]int, target.NumFields())
	for i := range pos {
		pos[i] = -1
	}
	if len(names) == 0 {
		if len(in) != target.NumFields() {
			return nil, invalidf("the query gives %d columns, the table has %d", len(in), target.NumFields())
		}
		for i := range pos {
			pos[i] = i
		}
	} else {
		if len(in) != len(names) {
			return nil, invalidf("the query gives %d columns for %d named columns", len(in), len(names))
		}
		for j, n := range names {
			idx := -1
			for i, f := range target.Fields() {
				if strings.EqualFold(f.Name, n) {
					idx = i
				}
			}
			if idx < 0 {
				return nil, &planner.UnknownColumnError{Name: n, Suggestion: planner.Suggest(n, planner.FieldNames(target))}
			}
			if pos[idx] >= 0 {
				return nil, invalidf("column %q named twice", n)
			}
			pos[idx] = j
		}
	}
	exprs := make([]planner.Expr, target.NumFields())
	cols := make([]planner.Column, target.NumFields())
	for i, f := range target.Fields() {
		cols[i] = planner.Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable}
		if pos[i] < 0 {
			exprs[i] = &planner.Literal{Type: f.Type}
			continue
		}
		c := in[pos[i]]
		var e planner.Expr = &planner.ColumnRef{Index: pos[i], Name: c.Name, Type: c.Type}
		// Nested values of the same kind are cast child by child (list
		// elements, struct fields by position, map keys and values).
		if !arrow.TypeEqual(c.Type, f.Type) && (isPrimitive(f.Type) || c.Type.ID() == f.Type.ID()) {
			e = &planner.Cast{E: e, To: f.Type, Column: f.Name}
		}
		exprs[i] = e
	}
	return &planner.Project{Input: p, Exprs: exprs, Cols: cols}, nil
}

func isPrimitive(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.STRUCT, arrow.MAP:
		return false
	}
	return true
}

// writeFiles writes every batch of it to new data files of t. On error
// every file written is removed.
func (s *Session) writeFiles(ctx context.Context, t *table.Table, it exec.RecordIterator) ([]iceberg.DataFile, int64, error) {
	sorted, sortID, err := sortForWrite(ctx, t.Metadata(), it)
	if err != nil {
		return nil, 0, err
	}
	if sorted != it {
		defer sorted.Close()
		it = sorted
	}
	w := datafile.NewWriter(ctx, s.engine.env.IO, t.Metadata(), datafile.WriterOptions{SortOrderID: &sortID})
	var n int64
	for {
		b, err := it.Next(ctx)
		if err != nil {
			w.Abort(context.WithoutCancel(ctx))
			return nil, 0, writeError(err)
		}
		if b == nil {
			break
		}
		n += b.NumRows()
		err = w.Write(ctx, b)
		b.Release()
		if err != nil {
			w.Abort(context.WithoutCancel(ctx))
			return nil, 0, err
		}
	}
	files, err := w.Close(ctx)
	if err != nil {
		return nil, 0, err
	}
	return files, n, nil
}

// writeError makes the executor's NULL violation match the Iceberg one
// too, its message unchanged.
func writeError(err error) error {
	if errors.Is(err, exec.ErrNullViolation) && !errors.Is(err, iceberg.ErrNotNullViolation) {
		return &notNullError{err}
	}
	return err
}

type notNullError struct{ err error }

func (e *notNullError) Error() string   { return e.err.Error() }
func (e *notNullError) Unwrap() []error { return []error{iceberg.ErrNotNullViolation, e.err} }

// appendQuery writes the rows of a bound query into t (CTAS) in one commit.
func (s *Session) appendQuery(ctx context.Context, t *table.Table, q *boundQuery, names []string) (int64, error) {
	target, err := arrowschema.ToArrow(t.Schema())
	if err != nil {
		return 0, err
	}
	p, err := castToTarget(q.plan, target, names)
	if err != nil {
		return 0, err
	}
	it, err := planner.Build(ctx, planner.NewEvalContext(ctx, nil), p)
	if err != nil {
		return 0, err
	}
	defer it.Close()
	files, n, err := s.writeFiles(ctx, t, it)
	if err != nil || len(files) == 0 {
		return 0, err
	}
	u := t.NewAppend()
	for _, f := range files {
		u = u.AddDataFile(f)
	}
	_, err = u.OwnFiles().Commit(ctx)
	return n, err
}

// insertOverwrite is a dynamic partition overwrite: the partitions the
// query writes are replaced, the others kept (an unpartitioned table is
// replaced whole).
func (s *Session) insertOverwrite(ctx context.Context, st *parser.InsertOverwriteStmt) (Result, error) {
	for _, pv := range st.Partition {
		if pv.Value != nil {
			return Result{}, notSupported("INSERT OVERWRITE with static partition values")
		}
	}
	ref := st.Table
	t, err := s.loadTable(ctx, ref)
	if err != nil {
		return Result{}, err
	}
	it, err := s.insertSource(ctx, t, st.Insert, st.Refs)
	if err != nil {
		return Result{}, err
	}
	defer it.Close()
	files, n, err := s.writeFiles(ctx, t, it)
	if err != nil {
		return Result{}, err
	}
	meta := t.Metadata()
	u := t.NewOverwrite()
	var readSnap *int64
	if snap := meta.CurrentSnapshot(); snap != nil {
		id := snap.SnapshotID
		readSnap = &id
		tasks, _, err := scan.Plan(ctx, opener(ctx, s.engine.env.IO), meta, id, nil, scan.Options{Cache: s.engine.manifests})
		if err != nil {
			s.removeFiles(context.WithoutCancel(ctx), files)
			return Result{}, err
		}
		unpartitioned := meta.CurrentSpec().IsUnpartitioned()
		written := map[string]bool{}
		for _, f := range files {
			written[iceberg.PartitionKey(f.SpecID, f.Partition)] = true
		}
		for _, task := range tasks {
			if unpartitioned || written[iceberg.PartitionKey(task.File.SpecID, task.File.Partition)] {
				u = u.RemoveFile(task.File)
			}
		}
	}
	for _, f := range files {
		u = u.AddDataFile(f)
	}
	u = u.Validate(readSnap, s.isolationFor(iceberg.IsolationSerializable), nil)
	if _, err := s.stage(ctx, u.OwnFiles()); err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: n}, nil
}

// removeFiles removes data files no commit will reference.
func (s *Session) removeFiles(ctx context.Context, files []iceberg.DataFile) {
	for _, f := range files {
		s.engine.env.IO.Remove(ctx, f.FilePath)
	}
}

// opener opens metadata files for scan planning.
func opener(ctx context.Context, fio fileio.FileIO) scan.Opener {
	return func(path string) (io.ReadCloser, error) {
		return fio.Open(ctx, path)
	}
}

// arrowSchemaOf is the Arrow form of a table's current schema.
func arrowSchemaOf(t *table.Table) (*arrow.Schema, error) {
	return arrowschema.ToArrow(t.Schema())
}
