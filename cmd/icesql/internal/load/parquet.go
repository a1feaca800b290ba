package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// newParquet reads a Parquet file through pqarrow; file columns are
// matched to table columns by name (case-insensitively), table columns
// the file lacks are NULL, and values are widened or parsed to the
// table's types. Progress counts rows.
func newParquet(path string, f *os.File, cols []Column, b *batcher, r *Reader) (func() (arrow.RecordBatch, error), error) {
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return nil, &InputError{File: path, Msg: "not a readable Parquet file", Err: err}
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(b.max)}, memory.DefaultAllocator)
	if err != nil {
		return nil, &InputError{File: path, Msg: "not a readable Parquet file", Err: err}
	}
	r.total = pf.NumRows()
	fileSchema, err := fr.Schema()
	if err != nil {
		return nil, &InputError{File: path, Msg: "Parquet schema", Err: err}
	}
	legacy := legacyListColumns(pf.MetaData().Schema.Root())
	if len(legacy) != fileSchema.NumFields() {
		// pqarrow maps the root's fields one to one; should it not, no
		// column is read as legacy rather than the wrong one
		legacy = make([]bool, fileSchema.NumFields())
	}
	// srcCol[c] is the file column of table column c, or -1.
	srcCol := make([]int, len(cols))
	used := 0
	for c, col := range cols {
		srcCol[c] = -1
		for i, fld := range fileSchema.Fields() {
			if strings.EqualFold(fld.Name, col.Name) {
				srcCol[c] = i
				used++
			}
		}
	}
	if used == 0 {
		return nil, &InputError{File: path, Msg: "no column of the file has a name of a table column"}
	}
	for _, fld := range fileSchema.Fields() {
		found := false
		for _, col := range cols {
			found = found || strings.EqualFold(fld.Name, col.Name)
		}
		if !found {
			return nil, &InputError{File: path, Msg: fmt.Sprintf("file column %q is not a column of the table", fld.Name)}
		}
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		return nil, &InputError{File: path, Msg: "Parquet reader", Err: err}
	}
	var row int64
	return func() (arrow.RecordBatch, error) {
		if !rr.Next() {
			rr.Release()
			if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
				return nil, &InputError{File: path, Msg: fmt.Sprintf("reading after row %d", row), Err: err}
			}
			return b.flush()
		}
		in := rr.RecordBatch()
		n := int(in.NumRows())
		for i := range n {
			row++
			for c, col := range cols {
				if srcCol[c] < 0 {
					b.rb.Field(c).AppendNull()
					continue
				}
				arr := in.Column(srcCol[c])
				v, err := parquetCell(arr, i, col.Type, legacy[srcCol[c]])
				if err != nil {
					return nil, &ValueError{File: path, Line: row, RowBased: true, Column: col.Name, Field: srcCol[c] + 1,
						Value: arr.ValueStr(i), Type: typeName(col.Type), Err: err}
				}
				if err := b.append(c, v); err != nil {
					return nil, err
				}
			}
		}
		r.done.Store(row)
		b.n = n
		rec := b.rb.NewRecordBatch()
		b.n = 0
		return rec, nil
	}, nil
}

// parquetValue reads element i in the Iceberg Go form, converting
// timestamps of any unit to the column's: nanoseconds for timestamp_ns,
// else microseconds.
func parquetValue(arr arrow.Array, i int, target iceberg.Type) (any, error) {
	if arr.IsNull(i) {
		return nil, nil
	}
	switch a := arr.(type) {
	case *array.Timestamp:
		// Scaled to the column's unit directly: through nanoseconds a
		// microsecond value past 2262 would overflow.
		unit := a.DataType().(*arrow.TimestampType).Unit
		v := int64(a.Value(i))
		switch target.(type) {
		case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
			m := int64(unit.Multiplier())
			if v > math.MaxInt64/m || v < math.MinInt64/m {
				return nil, fmt.Errorf("%w: timestamp %d %s is outside timestamp_ns (years 1677 to 2262)", ErrBadValue, v, unit)
			}
			return iceberg.TimestampNano(v * m), nil
		}
		switch unit {
		case arrow.Second:
			v *= 1_000_000
		case arrow.Millisecond:
			v *= 1000
		case arrow.Nanosecond:
			v = floorDiv(v, 1000)
		}
		return iceberg.Timestamp(v), nil
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		v := int64(a.Value(i))
		if unit == arrow.Second {
			return iceberg.Time(v * 1_000_000), nil
		}
		return iceberg.Time(v * 1000), nil
	case *array.Time64:
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			return iceberg.Time(int64(a.Value(i)) / 1000), nil
		}
	case *array.Int8:
		return int32(a.Value(i)), nil
	case *array.Int16:
		return int32(a.Value(i)), nil
	case *array.Uint8:
		return int32(a.Value(i)), nil
	case *array.Uint16:
		return int32(a.Value(i)), nil
	case *array.Uint32:
		return int64(a.Value(i)), nil
	case *array.Uint64:
		// Iceberg has no unsigned 64-bit type; BIGINT holds all but the
		// top half (Java refuses UINT_64 altogether)
		v := a.Value(i)
		if v > math.MaxInt64 {
			return nil, fmt.Errorf("%w: unsigned %d does not fit BIGINT", ErrBadValue, v)
		}
		return int64(v), nil
	case *array.Float16:
		// Iceberg has no float16: its column is fixed(2), the half's
		// little-endian bytes (what add_files reads from the same file)
		b := a.Value(i).Uint16()
		return []byte{byte(b), byte(b >> 8)}, nil
	}
	return arrowschema.ValueAt(arr, i, target)
}
