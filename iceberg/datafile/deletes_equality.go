package datafile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// eqDeleteSet holds the deleted key tuples of the equality delete files
// sharing one set of equality field ids. Keys are encoded with encodeKey;
// null equals null, as in Java's StructLikeSet.
type eqDeleteSet struct {
	ids  []int                 // sorted equality field ids
	keys []map[string]struct{} // one per delete file, or one merged
}

// mergeAbove is the number of cached per-file key sets above which a task
// merges them into one, trading a copy for one lookup per row.
const mergeAbove = 8

// loadEqualityDeletes reads the equality delete files, grouped by their
// equality ids. Values are read in the table schema's types so that they
// compare equal to the (promoted) data values. With a cache each file is
// parsed once per scan.
func loadEqualityDeletes(ctx context.Context, fio fileio.FileIO, table *iceberg.Schema, mapping parquetfile.NameMapping, deletes []iceberg.DataFile, cache *DeleteCache) ([]*eqDeleteSet, error) {
	var sets []*eqDeleteSet
	for _, d := range deletes {
		ids := slices.Clone(d.EqualityIDs)
		slices.Sort(ids)
		ids = slices.Compact(ids)
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
			set = &eqDeleteSet{ids: ids}
			sets = append(sets, set)
		}
		var err error
		if cache == nil {
			if len(set.keys) == 0 {
				set.keys = []map[string]struct{}{{}}
			}
			err = readEqualityKeys(ctx, fio, table, mapping, ids, d, set.keys[0])
		} else {
			var keys map[string]struct{}
			k := eqCacheKey{path: d.FilePath, ids: fmt.Sprint(ids), schemaID: table.ID}
			for {
				keys, err = cache.equalityKeys(k, func() (map[string]struct{}, error) {
					m := map[string]struct{}{}
					return m, readEqualityKeys(ctx, fio, table, mapping, ids, d, m)
				})
				// A load by a task whose context ended is not this task's
				// failure: failed loads are not cached, so load again.
				if err == nil || ctx.Err() != nil || !(errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
					break
				}
			}
			set.keys = append(set.keys, keys)
		}
		if err != nil {
			return nil, &FileError{Op: "read deletes", Path: d.FilePath, Err: err}
		}
	}
	for _, s := range sets {
		if len(s.keys) > mergeAbove {
			merged := map[string]struct{}{}
			for _, m := range s.keys {
				maps.Copy(merged, m)
			}
			s.keys = []map[string]struct{}{merged}
		}
	}
	return sets, nil
}

// readEqualityKeys adds the encoded key of every row of the delete file d
// to keys.
func readEqualityKeys(ctx context.Context, fio fileio.FileIO, table *iceberg.Schema, mapping parquetfile.NameMapping, ids []int, d iceberg.DataFile, keys map[string]struct{}) error {
	if d.FileFormat != iceberg.FormatParquet {
		return fmt.Errorf("%w: %s", ErrUnsupportedFormat, d.FileFormat)
	}
	proj, err := table.Select(ids...)
	if err != nil {
		return fmt.Errorf("%w: equality field is not in the table schema: %w", iceberg.ErrUnsupported, err)
	}
	for _, id := range ids {
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
		if err := resolveColumns(rec, proj, ids, cols); err != nil {
			rec.Release()
			return err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if buf, err = encodeKey(buf[:0], ids, cols, i); err != nil {
				rec.Release()
				return err
			}
			keys[string(buf)] = struct{}{}
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
	for _, keys := range s.keys {
		if _, ok := keys[string(buf)]; ok {
			return true, buf, nil
		}
	}
	return false, buf, nil
}

// encodeKey appends an unambiguous encoding of row i's values of ids.
func encodeKey(buf []byte, ids []int, cols map[int]colRef, i int) ([]byte, error) {
	for _, id := range ids {
		c, ok := cols[id]
		if !ok {
			buf = append(buf, 0) // column absent from the file: null
			continue
		}
		var err error
		if buf, err = c.appendKey(buf, i); err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// appendKey appends row i's value as appendValue encodes it, reading the
// common Arrow types directly instead of boxing a Go value per row.
func (c colRef) appendKey(buf []byte, i int) ([]byte, error) {
	for _, p := range c.parents {
		if p.IsNull(i) {
			return append(buf, 0), nil
		}
	}
	if c.leaf.IsNull(i) {
		return append(buf, 0), nil
	}
	switch a := c.leaf.(type) {
	case *array.Int64:
		if _, ok := c.typ.(iceberg.LongType); ok {
			return binary.LittleEndian.AppendUint64(append(buf, 2), uint64(a.Value(i))), nil
		}
	case *array.Int32:
		if _, ok := c.typ.(iceberg.IntType); ok {
			return binary.LittleEndian.AppendUint64(append(buf, 2), uint64(int64(a.Value(i)))), nil
		}
	case *array.String:
		if _, ok := c.typ.(iceberg.StringType); ok {
			v := a.Value(i)
			return append(binary.AppendUvarint(append(buf, 8), uint64(len(v))), v...), nil
		}
	}
	v, err := arrowschema.ValueAt(c.leaf, i, c.typ)
	if err != nil {
		return buf, err
	}
	return appendValue(buf, v), nil
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
