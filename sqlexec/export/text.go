package export

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// asText casts a column to the engine's text form (CAST(x AS STRING)),
// so files read as the shell prints values.
func asText(ec *exec.EvalContext, a arrow.Array) (*array.String, error) {
	if isNested(a.DataType()) {
		return nestedAsJSON(ec, a)
	}
	s, err := exec.Cast(ec, a, arrow.BinaryTypes.String)
	if err != nil {
		return nil, err
	}
	if out, ok := s.(*array.String); ok {
		return out, nil
	}
	s.Release()
	return nil, &TypeError{Type: a.DataType().String()}
}

func isNested(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.STRUCT, arrow.MAP, arrow.FIXED_SIZE_LIST:
		return !exec.IsVariant(t)
	}
	return false
}

// nestedAsJSON writes lists, structs and maps as JSON text.
func nestedAsJSON(ec *exec.EvalContext, a arrow.Array) (*array.String, error) {
	b := array.NewStringBuilder(ec.Mem)
	defer b.Release()
	var buf bytes.Buffer
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf.Reset()
		if err := appendJSON(&buf, a, i); err != nil {
			return nil, err
		}
		b.Append(buf.String())
	}
	return b.NewStringArray(), nil
}

// TypeError: a column whose values cannot be written as text.
type TypeError struct{ Type string }

func (e *TypeError) Error() string {
	return "export: cannot write values of type " + e.Type + " as text"
}

func evalContext() *exec.EvalContext { return &exec.EvalContext{Mem: memory.DefaultAllocator} }

type csvWriter struct {
	bw   *bufio.Writer
	w    *csv.Writer
	null string
	ec   *exec.EvalContext
}

func newCSVWriter(w io.Writer, s *arrow.Schema, opts Options) (*csvWriter, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	cw.Comma = opts.Delimiter
	out := &csvWriter{bw: bw, w: cw, null: opts.Null, ec: evalContext()}
	if opts.Header {
		names := make([]string, s.NumFields())
		for i, f := range s.Fields() {
			names[i] = f.Name
		}
		if err := cw.Write(names); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *csvWriter) write(b arrow.RecordBatch) error {
	cols := make([]*array.String, b.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, a := range b.Columns() {
		s, err := asText(c.ec, a)
		if err != nil {
			return err
		}
		cols[i] = s
	}
	rec := make([]string, len(cols))
	for r := 0; r < int(b.NumRows()); r++ {
		for i, s := range cols {
			if s.IsNull(r) {
				rec[i] = c.null
			} else {
				rec[i] = s.Value(r)
			}
		}
		if err := c.w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

func (c *csvWriter) close() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	return c.bw.Flush()
}

func (c *csvWriter) abort() {}

// jsonWriter writes one object per row, keys in column order. Numbers and
// booleans are JSON numbers and booleans, nested values arrays and
// objects, everything else (dates, timestamps, decimals as exact text) the
// engine's text.
type jsonWriter struct {
	bw   *bufio.Writer
	keys [][]byte
	ec   *exec.EvalContext
	buf  bytes.Buffer
}

func newJSONWriter(w io.Writer, s *arrow.Schema) (*jsonWriter, error) {
	out := &jsonWriter{bw: bufio.NewWriterSize(w, 1<<16), ec: evalContext()}
	for _, f := range s.Fields() {
		k, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		out.keys = append(out.keys, k)
	}
	return out, nil
}

func nativeJSON(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16,
		arrow.UINT32, arrow.UINT64, arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.LARGE_STRING,
		arrow.LIST, arrow.LARGE_LIST, arrow.STRUCT, arrow.MAP, arrow.FIXED_SIZE_LIST:
		return !exec.IsVariant(t)
	}
	return false
}

func (j *jsonWriter) write(b arrow.RecordBatch) error {
	text := make([]*array.String, b.NumCols())
	defer func() {
		for _, c := range text {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, a := range b.Columns() {
		if !nativeJSON(a.DataType()) {
			s, err := asText(j.ec, a)
			if err != nil {
				return err
			}
			text[i] = s
		}
	}
	for r := 0; r < int(b.NumRows()); r++ {
		j.bw.WriteByte('{')
		for i, a := range b.Columns() {
			if i > 0 {
				j.bw.WriteByte(',')
			}
			j.bw.Write(j.keys[i])
			j.bw.WriteByte(':')
			var v any
			switch {
			case a.IsNull(r):
			case text[i] != nil && a.DataType().ID() == arrow.DECIMAL128 || text[i] != nil && a.DataType().ID() == arrow.DECIMAL256:
				v = json.Number(text[i].Value(r))
			case text[i] != nil:
				v = text[i].Value(r)
			default:
				j.buf.Reset()
				if err := appendJSON(&j.buf, a, r); err != nil {
					return err
				}
				j.bw.Write(j.buf.Bytes())
				continue
			}
			enc, err := json.Marshal(v)
			if err != nil {
				return err
			}
			j.bw.Write(enc)
		}
		j.bw.WriteString("}\n")
	}
	return nil
}

func (j *jsonWriter) close() error { return j.bw.Flush() }
func (j *jsonWriter) abort()       {}
