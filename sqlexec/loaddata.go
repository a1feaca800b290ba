package sqlexec

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

// loadBatchRows is the rows per batch read from a LOAD DATA file.
const loadBatchRows = 8192

// loadData runs LOAD DATA [LOCAL] INFILE 'file' INTO TABLE t [FIELDS
// TERMINATED BY 'c' [[OPTIONALLY] ENCLOSED BY '"']] [LINES TERMINATED BY
// '\n'] [IGNORE n LINES] [(col, ...)]: the file is read as CSV (quotes
// per RFC 4180; an empty field or \N is NULL), each field converted as a
// string cast to its column's type, and the whole file appended as one
// snapshot. The first bad record fails the statement with a
// *LoadDataError and nothing is committed. LOCAL and server files are
// the same here: the engine runs in the client's process.
func (s *Session) loadData(ctx context.Context, w *parser.TiDBStmt, ld *ast.LoadDataStmt) (Result, error) {
	if err := s.checkWritable(); err != nil {
		return Result{}, err
	}
	opts, err := loadOptions(ld)
	if err != nil {
		return Result{}, err
	}
	if ld.Table == nil {
		return Result{}, invalidf("LOAD DATA without a table")
	}
	ref := w.Refs[ld.Table]
	if ref == nil {
		ref = &parser.TableRef{Parts: []string{ld.Table.Name.O}, Table: ld.Table.Name.O}
		if ld.Table.Schema.O != "" {
			ref.Namespace = strings.Split(ld.Table.Schema.O, ".")
			ref.Parts = append(append([]string(nil), ref.Namespace...), ld.Table.Name.O)
		}
	}
	if ref.MetadataTable != "" || ref.VersionAsOf != nil || ref.TimestampAsOf != nil || ref.Tag != "" {
		return Result{}, invalidf("cannot load into %s", ref)
	}
	t, err := s.loadTable(ctx, ref)
	if err != nil {
		return Result{}, err
	}
	target, err := arrowSchemaOf(t)
	if err != nil {
		return Result{}, err
	}
	fieldCol, err := loadColumns(ld, target)
	if err != nil {
		return Result{}, err
	}
	f, err := fileio.OpenRegular(ld.Path)
	if err != nil {
		return Result{}, fmt.Errorf("LOAD DATA: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.Comma = opts.comma
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	it := &csvIterator{path: ld.Path, cr: cr, target: target, fieldCol: fieldCol, skip: opts.ignore}
	defer it.Close()
	return s.appendRows(ctx, t, ref.Branch, it)
}

type loadOpts struct {
	comma  rune
	ignore uint64
}

// loadOptions checks the statement's clauses against what the CSV reader
// does, refusing the ones it would silently get wrong.
func loadOptions(ld *ast.LoadDataStmt) (loadOpts, error) {
	o := loadOpts{comma: ','}
	switch {
	case ld.Format != nil && !strings.EqualFold(*ld.Format, "delimited data"):
		return o, notSupported("LOAD DATA FORMAT %q", *ld.Format)
	case ld.OnDuplicate == ast.OnDuplicateKeyHandlingReplace:
		// IGNORE (implied by LOCAL) is accepted: tables have no keys to
		// collide on, and bad values fail the statement either way.
		return o, notSupported("LOAD DATA REPLACE")
	case len(ld.ColumnAssignments) > 0:
		return o, notSupported("LOAD DATA ... SET")
	case len(ld.Options) > 0:
		return o, notSupported("LOAD DATA ... WITH options")
	case ld.Charset != nil && !strings.EqualFold(*ld.Charset, "utf8") && !strings.EqualFold(*ld.Charset, "utf8mb4"):
		return o, notSupported("LOAD DATA CHARACTER SET %s", *ld.Charset)
	}
	if fi := ld.FieldsInfo; fi != nil {
		if fi.Terminated != nil {
			r, size := utf8.DecodeRuneInString(*fi.Terminated)
			if size == 0 || size != len(*fi.Terminated) || r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
				return o, notSupported("FIELDS TERMINATED BY %q: one character other than a quote or line break", *fi.Terminated)
			}
			o.comma = r
		}
		if fi.Enclosed != nil && *fi.Enclosed != `"` && *fi.Enclosed != "" {
			return o, notSupported("FIELDS ENCLOSED BY %q: only '\"'", *fi.Enclosed)
		}
		if fi.Escaped != nil && *fi.Escaped != "" && *fi.Escaped != `\` {
			return o, notSupported("FIELDS ESCAPED BY %q", *fi.Escaped)
		}
		if fi.DefinedNullBy != nil {
			return o, notSupported("FIELDS DEFINED NULL BY")
		}
	}
	if li := ld.LinesInfo; li != nil {
		if li.Starting != nil && *li.Starting != "" {
			return o, notSupported("LINES STARTING BY")
		}
		if li.Terminated != nil && *li.Terminated != "\n" && *li.Terminated != "\r\n" {
			return o, notSupported("LINES TERMINATED BY %q: only '\\n' or '\\r\\n'", *li.Terminated)
		}
	}
	if ld.IgnoreLines != nil {
		o.ignore = *ld.IgnoreLines
	}
	return o, nil
}

// loadColumns maps each field of a record to its table column: all
// columns in order, or the listed ones (the rest NULL).
func loadColumns(ld *ast.LoadDataStmt, target *arrow.Schema) ([]int, error) {
	for _, f := range target.Fields() {
		if !isPrimitive(f.Type) {
			return nil, notSupported("LOAD DATA into the nested column %s", f.Name)
		}
	}
	var names []string
	for _, c := range ld.Columns {
		names = append(names, c.Name.O)
	}
	for _, c := range ld.ColumnsAndUserVars {
		if c.ColumnName == nil {
			return nil, notSupported("LOAD DATA into user variables")
		}
		if len(ld.Columns) == 0 {
			names = append(names, c.ColumnName.Name.O)
		}
	}
	if len(names) == 0 {
		out := make([]int, target.NumFields())
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	out := make([]int, len(names))
	used := make([]bool, target.NumFields())
	for i, n := range names {
		out[i] = -1
		for j, f := range target.Fields() {
			if strings.EqualFold(f.Name, n) {
				out[i] = j
			}
		}
		if out[i] < 0 {
			return nil, invalidf("LOAD DATA: no column %q in the table", n)
		}
		if used[out[i]] {
			return nil, invalidf("LOAD DATA: column %q named twice", n)
		}
		used[out[i]] = true
	}
	return out, nil
}

// csvIterator reads CSV records into batches of the table's columns.
type csvIterator struct {
	path     string
	cr       *csv.Reader
	target   *arrow.Schema
	fieldCol []int
	skip     uint64
	done     bool
	bld      *array.RecordBuilder
}

func (c *csvIterator) Schema() *arrow.Schema { return c.target }

func (c *csvIterator) Close() {
	if c.bld != nil {
		c.bld.Release()
		c.bld = nil
	}
}

func (c *csvIterator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if c.done {
		return nil, nil
	}
	if c.bld == nil {
		c.bld = array.NewRecordBuilder(memory.DefaultAllocator, c.target)
	}
	str := arrow.BinaryTypes.String
	set := make([]bool, c.target.NumFields())
	rows := 0
	for rows < loadBatchRows {
		if rows%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rec, err := c.cr.Read()
		if errors.Is(err, io.EOF) {
			c.done = true
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &LoadDataError{File: c.path, Line: int64(pe.Line), Msg: fmt.Sprintf("malformed CSV at character %d", pe.Column), Err: pe.Err}
			}
			return nil, fmt.Errorf("LOAD DATA %s: %w", c.path, err)
		}
		line, _ := c.cr.FieldPos(0)
		if c.skip > 0 {
			c.skip--
			continue
		}
		if len(rec) != len(c.fieldCol) {
			return nil, &LoadDataError{File: c.path, Line: int64(line), Msg: fmt.Sprintf("%d fields, want %d", len(rec), len(c.fieldCol))}
		}
		clear(set)
		for i, s := range rec {
			col := c.fieldCol[i]
			f := c.target.Field(col)
			var v any
			if s != "" && s != `\N` {
				v, err = exec.CastValue(s, str, f.Type)
				if err != nil {
					l, _ := c.cr.FieldPos(i)
					return nil, &LoadDataError{File: c.path, Line: int64(l), Field: i + 1, Column: f.Name, Value: s, Msg: fmt.Sprintf("cannot read %q as %s", s, f.Type), Err: err}
				}
			}
			if v == nil && !f.Nullable {
				l, _ := c.cr.FieldPos(i)
				return nil, &LoadDataError{File: c.path, Line: int64(l), Field: i + 1, Column: f.Name, Value: s, Msg: "NULL in a required column"}
			}
			if err := exec.AppendValue(c.bld.Field(col), v); err != nil {
				return nil, err
			}
			set[col] = true
		}
		for col, ok := range set {
			if ok {
				continue
			}
			if f := c.target.Field(col); !f.Nullable {
				return nil, &LoadDataError{File: c.path, Line: int64(line), Column: f.Name, Msg: "no value for a required column"}
			}
			c.bld.Field(col).AppendNull()
		}
		rows++
	}
	if rows == 0 {
		return nil, nil
	}
	return c.bld.NewRecordBatch(), nil
}
