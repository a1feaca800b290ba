package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NewBatch assembles a record batch of schema out from cols, checking
// what array.NewRecordBatch would otherwise panic on: the column count,
// each column's type and length. An untyped NULL column (type null)
// becomes a typed all-NULL column of the field's type. The caller keeps
// its references to cols.
func NewBatch(ec *EvalContext, out *arrow.Schema, cols []arrow.Array, rows int64) (arrow.RecordBatch, error) {
	if len(cols) != out.NumFields() {
		return nil, &BatchShapeError{Column: "", Problem: "column count", Want: out.NumFields(), Got: len(cols)}
	}
	mem := memory.Allocator(memory.DefaultAllocator)
	if ec != nil && ec.Mem != nil {
		mem = ec.Mem
	}
	var typed []arrow.Array
	defer func() { ReleaseArrays(typed) }()
	use := cols
	for i, c := range cols {
		f := out.Field(i)
		if int64(c.Len()) != rows {
			return nil, &BatchShapeError{Column: f.Name, Problem: "row count", Want: int(rows), Got: c.Len()}
		}
		if arrow.TypeEqual(c.DataType(), f.Type) {
			continue
		}
		if c.DataType().ID() != arrow.NULL {
			return nil, &BatchTypeError{Column: f.Name, Want: f.Type.String(), Got: c.DataType().String()}
		}
		if typed == nil {
			typed = make([]arrow.Array, 0, 1)
			use = append([]arrow.Array(nil), cols...)
		}
		n := array.MakeArrayOfNull(mem, f.Type, c.Len())
		typed = append(typed, n)
		use[i] = n
	}
	return array.NewRecordBatch(out, use, rows), nil
}
