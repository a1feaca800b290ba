package exec

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	cexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// appendKey appends an unambiguous encoding of row i of arr to buf; it
// reports whether the value was NULL. Equal SQL values encode equally
// (+0 and -0 are folded; NaN is one value).
func appendKey(buf []byte, arr arrow.Array, i int) ([]byte, bool) {
	if arr.IsNull(i) {
		return append(buf, 0), true
	}
	buf = append(buf, 1)
	switch a := arr.(type) {
	case *array.Int64:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i))), false
	case *array.Int32:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i))), false
	case *array.String:
		s := a.Value(i)
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		return append(buf, s...), false
	case *array.Float64:
		return appendFloatKey(buf, a.Value(i)), false
	case *array.Float32:
		return appendFloatKey(buf, float64(a.Value(i))), false
	case *array.Boolean:
		if a.Value(i) {
			return append(buf, 1), false
		}
		return append(buf, 0), false
	case *array.Date32:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i))), false
	case *array.Timestamp:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i))), false
	case *array.Time64:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i))), false
	case *array.Decimal128:
		n := a.Value(i)
		buf = binary.LittleEndian.AppendUint64(buf, n.LowBits())
		return binary.LittleEndian.AppendUint64(buf, uint64(n.HighBits())), false
	}
	v := ValueAt(arr, i)
	var b []byte
	switch x := v.(type) {
	case []byte:
		b = x
	case decimal128.Num:
		b = []byte(x.BigInt().String())
	default:
		b = []byte(FormatValue(v, arr.DataType()))
	}
	buf = binary.AppendUvarint(buf, uint64(len(b)))
	return append(buf, b...), false
}

func appendFloatKey(buf []byte, f float64) []byte {
	if f == 0 {
		f = 0
	}
	if math.IsNaN(f) {
		f = math.NaN()
	}
	return binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
}

// TakeBatch gathers rows of b by index; index -1 yields a NULL row.
func TakeBatch(ctx context.Context, ec *EvalContext, schema *arrow.Schema, cols []arrow.Array, idx []int32) (arrow.RecordBatch, error) {
	out, err := takeColumns(ctx, ec, cols, idx)
	if err != nil {
		return nil, err
	}
	rb := array.NewRecordBatch(schema, out, int64(len(idx)))
	ReleaseArrays(out)
	return rb, nil
}

// takeColumns gathers rows of cols by index (-1: NULL); the caller
// releases the arrays.
func takeColumns(ctx context.Context, ec *EvalContext, cols []arrow.Array, idx []int32) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(cols))
	if len(cols) == 0 {
		return out, nil
	}
	var rest []int
	for c, col := range cols {
		if g, ok := gather(ec.Mem, col, idx); ok {
			out[c] = g
		} else {
			rest = append(rest, c)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	ib := array.NewInt32Builder(ec.Mem)
	ib.Reserve(len(idx))
	for _, i := range idx {
		if i < 0 {
			ib.UnsafeAppendBoolToBitmap(false)
		} else {
			ib.UnsafeAppend(i)
		}
	}
	indices := ib.NewArray()
	ib.Release()
	defer indices.Release()
	cctx := cexec.WithAllocator(ctx, ec.Mem)
	for _, c := range rest {
		t, err := compute.TakeArray(cctx, cols[c], indices)
		if err != nil {
			ReleaseArrays(out)
			return nil, err
		}
		out[c] = t
	}
	return out, nil
}

// concatBatches merges batches into one set of columns (caller releases).
func concatBatches(ec *EvalContext, schema *arrow.Schema, bs []arrow.RecordBatch) ([]arrow.Array, int, error) {
	cols := make([]arrow.Array, schema.NumFields())
	n := 0
	for _, b := range bs {
		n += int(b.NumRows())
	}
	for c := range cols {
		if len(bs) == 0 {
			cols[c] = array.MakeArrayOfNull(ec.Mem, schema.Field(c).Type, 0)
			continue
		}
		parts := make([]arrow.Array, len(bs))
		for i, b := range bs {
			parts[i] = b.Column(c)
		}
		a, err := array.Concatenate(parts, ec.Mem)
		if err != nil {
			ReleaseArrays(cols)
			return nil, 0, err
		}
		cols[c] = a
	}
	return cols, n, nil
}
