package plannertest

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // literal values

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
	sqlparser "github.com/icesql/icesql/sqlexec/parser"
)

func newBatch(s *arrow.Schema, cols []arrow.Array, n int64) arrow.RecordBatch {
	return array.NewRecordBatch(s, cols, n)
}

// DB runs SQL text against a Catalog: the fixture behind the .test files.
type DB struct {
	Cat *Catalog
	Mem memory.Allocator
}

// NewDB makes a DB over a fresh catalog.
func NewDB(mem memory.Allocator) *DB {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &DB{Cat: NewCatalog(), Mem: mem}
}

// parse reads queries through the engine's SQL front end (which adds
// FULL JOIN and NULLS FIRST/LAST to what TiDB parses) and everything else,
// such as MySQL-typed CREATE TABLE, with TiDB directly.
func parse(sql string) (ast.StmtNode, error) {
	if st, err := sqlparser.ParseOne(sql); err == nil {
		if t, ok := st.(*sqlparser.TiDBStmt); ok {
			if _, isQuery := t.Node.(ast.ResultSetNode); isQuery {
				return t.Node, nil
			}
		}
	} else if n, tidbErr := parser.New().ParseOneStmt(sql, "", ""); tidbErr != nil {
		return nil, err
	} else if _, isQuery := n.(ast.ResultSetNode); isQuery {
		return nil, err
	}
	return parser.New().ParseOneStmt(sql, "", "")
}

// Exec runs CREATE TABLE, DROP TABLE or INSERT ... VALUES.
func (db *DB) Exec(sql string) error {
	stmt, err := parse(sql)
	if err != nil {
		return err
	}
	ctx := context.Background()
	switch s := stmt.(type) {
	case *ast.CreateTableStmt:
		fields := make([]arrow.Field, len(s.Cols))
		for i, c := range s.Cols {
			t, err := planner.FieldTypeToArrow(c.Tp)
			if err != nil {
				return err
			}
			nullable := true
			for _, o := range c.Options {
				if o.Tp == ast.ColumnOptionNotNull || o.Tp == ast.ColumnOptionPrimaryKey {
					nullable = false
				}
			}
			if mysql.HasNotNullFlag(c.Tp.GetFlag()) {
				nullable = false
			}
			fields[i] = arrow.Field{Name: c.Name.Name.O, Type: t, Nullable: nullable}
		}
		db.Cat.Add(NewTable(s.Table.Name.O, arrow.NewSchema(fields, nil)))
		return nil
	case *ast.DropTableStmt:
		for _, t := range s.Tables {
			db.Cat.mu.Lock()
			if tb, ok := db.Cat.tables[strings.ToLower(t.Name.O)]; ok {
				tb.Release()
			}
			delete(db.Cat.tables, strings.ToLower(t.Name.O))
			db.Cat.mu.Unlock()
		}
		return nil
	case *ast.InsertStmt:
		tn, ok := s.Table.TableRefs.Left.(*ast.TableSource).Source.(*ast.TableName)
		if !ok {
			return fmt.Errorf("plannertest: unsupported INSERT target")
		}
		pt, err := db.Cat.ResolveTable(ctx, planner.TableRef{Name: tn.Name.O})
		if err != nil {
			return err
		}
		t := pt.(*Table)
		var p planner.Plan
		if s.Select != nil {
			if p, err = planner.PlanQuery(ctx, db.Cat, s.Select, planner.BindOptions{}); err != nil {
				return err
			}
		} else if p, err = planner.BindInsertValues(ctx, s, t.Schema()); err != nil {
			return err
		}
		bs, err := db.run(ctx, p)
		if err != nil {
			return err
		}
		defer exec.ReleaseAll(bs)
		for _, b := range bs {
			if int(b.NumCols()) != t.Schema().NumFields() {
				return fmt.Errorf("plannertest: INSERT produces %d columns for %d", b.NumCols(), t.Schema().NumFields())
			}
			nb := array.NewRecordBatch(t.Schema(), b.Columns(), b.NumRows())
			t.Append(nb)
			nb.Release()
		}
		return nil
	}
	return fmt.Errorf("plannertest: Exec does not handle %T", stmt)
}

func (db *DB) run(ctx context.Context, p planner.Plan) ([]arrow.RecordBatch, error) {
	ec := planner.NewEvalContext(ctx, db.Mem)
	it, err := planner.Execute(ctx, ec, p)
	if err != nil {
		return nil, err
	}
	return exec.Collect(ctx, it)
}

// QueryBatches runs a SELECT and returns its schema and batches (caller releases).
func (db *DB) QueryBatches(ctx context.Context, sql string) (*arrow.Schema, []arrow.RecordBatch, error) {
	stmt, err := parse(sql)
	if err != nil {
		return nil, nil, err
	}
	if ex, ok := stmt.(*ast.ExplainStmt); ok {
		p, err := planner.PlanQuery(ctx, db.Cat, ex.Stmt, planner.BindOptions{})
		if err != nil {
			return nil, nil, err
		}
		text, err := planner.Explain(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		schema := arrow.NewSchema([]arrow.Field{{Name: "plan", Type: arrow.BinaryTypes.String}}, nil)
		b := array.NewStringBuilder(db.Mem)
		defer b.Release()
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			b.Append(line)
		}
		col := b.NewArray()
		defer col.Release()
		return schema, []arrow.RecordBatch{array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))}, nil
	}
	p, err := planner.PlanQuery(ctx, db.Cat, stmt, planner.BindOptions{})
	if err != nil {
		return nil, nil, err
	}
	bs, err := db.run(ctx, p)
	return planner.SchemaOf(p.Columns()), bs, err
}

// Query runs a SELECT and renders rows as text (exec.FormatValue rules).
func (db *DB) Query(sql string) ([]string, [][]string, error) {
	schema, bs, err := db.QueryBatches(context.Background(), sql)
	if err != nil {
		return nil, nil, err
	}
	defer exec.ReleaseAll(bs)
	cols := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		cols[i] = f.Name
	}
	var rows [][]string
	for _, b := range bs {
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]string, b.NumCols())
			for c := range row {
				row[c] = exec.FormatValue(exec.ValueAt(b.Column(c), r), b.Column(c).DataType())
			}
			rows = append(rows, row)
		}
	}
	return cols, rows, nil
}
