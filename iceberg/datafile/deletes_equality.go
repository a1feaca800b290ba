package datafile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// eqDeleteSet holds the deleted key tuples of the equality delete files
// sharing one set of equality field ids. Keys are encoded with encodeKey;
// null equals null, as in Java's StructLikeSet.
type eqDeleteSet struct {
	ids  []int // sorted equality field ids
	keys map[string]struct{}
}

// loadEqualityDeletes reads the equality delete files, grouped by their
// equality ids. Values are read in the table schema's types so that they
// compare equal to the (promoted) data values.
func loadEqualityDeletes(ctx context.Context, fio fileio.FileIO, table *iceberg.Schema, mapping parquetfile.NameMapping, deletes []iceberg.DataFile) ([]*eqDeleteSet, error) {
	var sets []*eqDeleteSet
	for _, d := range deletes {
		ids := slices.Clone(d.EqualityIDs)
		slices.Sort(ids)
		if len(ids) == 0 {
			return nil, &FileError{Op: "read deletes", Path: d.FilePath, Err: corruptDelete(d.FilePath, errors.New("equality delete file has no equality ids"))}
		}
		var set *eqDeleteSet
		for _, s := range sets {
			if slices.Equal(s.ids, ids) {
				set = s
			}
		}
		if set == nil {
			set = &eqDeleteSet{ids: ids, keys: map[string]struct{}{}}
			sets = append(sets, set)
		}
		if err := set.read(ctx, fio, table, mapping, d); err != nil {
			return nil, &FileError{Op: "read deletes", Path: d.FilePath, Err: err}
		}
	}
	return sets, nil
}

func (s *eqDeleteSet) read(ctx context.Context, fio fileio.FileIO, table *iceberg.Schema, mapping parquetfile.NameMapping, d iceberg.DataFile) error {
	if d.FileFormat != iceberg.FormatParquet {
		return fmt.Errorf("%w: %s", ErrUnsupportedFormat, d.FileFormat)
	}
	proj, err := table.Select(s.ids...)
	if err != nil {
		return fmt.Errorf("%w: equality field is not in the table schema: %w", iceberg.ErrUnsupported, err)
	}
	for _, id := range s.ids {
		if f, _ := table.FindFieldByID(id); !isPrimitive(f.Type) {
			return fmt.Errorf("%w: equality field %d is not primitive", iceberg.ErrUnsupported, id)
		}
	}
	in, err := fio.Open(ctx, d.FilePath)
	if err != nil {
		return err
	}
	defer in.Close()
	pr, err := openParquet(in)
	if err != nil {
		return err
	}
	rr, err := pr.NewRecordReader(ctx, proj, parquetfile.ReadOptions{NameMapping: mapping})
	if err != nil {
		return err
	}
	defer rr.Close()
	cols := map[int]colRef{}
	var buf []byte
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		clear(cols)
		if err := resolveColumns(rec, proj, s.ids, cols); err != nil {
			rec.Release()
			return err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if buf, err = encodeKey(buf[:0], s.ids, cols, i); err != nil {
				rec.Release()
				return err
			}
			s.keys[string(buf)] = struct{}{}
		}
		rec.Release()
	}
}

func isPrimitive(t iceberg.Type) bool {
	switch t.(type) {
	case *iceberg.StructType, *iceberg.ListType, *iceberg.MapType, nil:
		return false
	}
	return true
}

// contains reports whether row i of the data (columns by field id) is
// deleted; buf is scratch space.
func (s *eqDeleteSet) contains(cols map[int]colRef, i int, buf []byte) (bool, []byte, error) {
	buf, err := encodeKey(buf[:0], s.ids, cols, i)
	if err != nil {
		return false, buf, err
	}
	_, ok := s.keys[string(buf)]
	return ok, buf, nil
}

// encodeKey appends an unambiguous encoding of row i's values of ids.
func encodeKey(buf []byte, ids []int, cols map[int]colRef, i int) ([]byte, error) {
	for _, id := range ids {
		c, ok := cols[id]
		if !ok {
			buf = append(buf, 0) // column absent from the file: null
			continue
		}
		v, err := c.value(i)
		if err != nil {
			return buf, err
		}
		buf = appendValue(buf, v)
	}
	return buf, nil
}

func appendValue(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, 0)
	case bool:
		if x {
			return append(buf, 1, 1)
		}
		return append(buf, 1, 0)
	case int32:
		return binary.LittleEndian.AppendUint64(append(buf, 2), uint64(int64(x)))
	case int64:
		return binary.LittleEndian.AppendUint64(append(buf, 2), uint64(x))
	case float32:
		return appendFloat(append(buf, 3), float64(x))
	case float64:
		return appendFloat(append(buf, 3), x)
	case iceberg.Date:
		return binary.LittleEndian.AppendUint64(append(buf, 4), uint64(int64(x)))
	case iceberg.Time:
		return binary.LittleEndian.AppendUint64(append(buf, 5), uint64(int64(x)))
	case iceberg.Timestamp:
		return binary.LittleEndian.AppendUint64(append(buf, 6), uint64(int64(x)))
	case iceberg.Decimal:
		buf = binary.LittleEndian.AppendUint64(append(buf, 7), x.Unscaled.LowBits())
		return binary.LittleEndian.AppendUint64(buf, uint64(x.Unscaled.HighBits()))
	case string:
		return append(binary.AppendUvarint(append(buf, 8), uint64(len(x))), x...)
	case []byte:
		return append(binary.AppendUvarint(append(buf, 9), uint64(len(x))), x...)
	case iceberg.UUID:
		return append(append(buf, 10), x[:]...)
	}
	return append(buf, fmt.Sprintf("\xff%T:%v", v, v)...)
}

func appendFloat(buf []byte, f float64) []byte {
	if math.IsNaN(f) {
		f = math.NaN() // one NaN bit pattern
	}
	return binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
}
