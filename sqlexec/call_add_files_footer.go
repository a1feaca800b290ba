package sqlexec

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/parquetfile"
)

// importedFile is a Parquet file add_files checked against the table, with
// the metrics its footer gives.
type importedFile struct {
	path    string // local path
	metrics parquetfile.Metrics
}

// inspectParquet opens a Parquet file, checks that its columns fit the
// table schema (by field id, or through mapping for files without ids)
// and derives Iceberg metrics from its footer. Bounds are kept only for
// top-level boolean, int, long, date and string columns, whose footer
// statistics compare as Iceberg does; other columns get counts only.
func inspectParquet(path string, schema *iceberg.Schema, mapping parquetfile.NameMapping) (importedFile, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: add_files: %s: %s", iceberg.ErrInvalidDataFile, path, fmt.Sprintf(format, a...))
	}
	fh, err := fileio.OpenRegular(path)
	if err != nil {
		return importedFile{}, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return importedFile{}, err
	}
	rd, err := parquetfile.Open(fh, st.Size())
	if err != nil {
		return importedFile{}, fmt.Errorf("add_files: %s: %w", path, err)
	}
	pf, err := parquet.OpenFile(fh, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return importedFile{}, bad("%v", err)
	}
	for _, c := range pf.Root().Columns() {
		if c.ID() != 0 {
			continue
		}
		if mapping == nil {
			return importedFile{}, bad("column %q has no field id and the table has no name mapping", c.Name())
		}
		if _, ok := mapping([]string{c.Name()}); !ok {
			return importedFile{}, bad("column %q matches no column of the table", c.Name())
		}
	}
	fileSchema, err := rd.Schema(mapping)
	if err != nil {
		return importedFile{}, fmt.Errorf("add_files: %s: %w", path, err)
	}
	if err := fieldsFit(fileSchema.Fields(), schema, ""); err != nil {
		return importedFile{}, bad("%v", err)
	}
	for _, f := range schema.Fields() {
		if _, ok := fileSchema.FindFieldByID(f.ID); !ok && f.Required {
			return importedFile{}, bad("required column %q is missing", f.Name)
		}
	}
	return importedFile{path: path, metrics: footerMetrics(pf, rd.NumRows(), st.Size(), schema, mapping)}, nil
}

// fieldsFit checks file fields against the table's fields of the same id:
// the same kind of type, a primitive equal to or promotable to the table's.
func fieldsFit(fields []iceberg.NestedField, schema *iceberg.Schema, prefix string) error {
	for _, f := range fields {
		name := prefix + f.Name
		tf, ok := schema.FindFieldByID(f.ID)
		if !ok {
			return fmt.Errorf("column %q (field id %d) is not in the table", name, f.ID)
		}
		switch ft := f.Type.(type) {
		case *iceberg.StructType:
			if _, ok := tf.Type.(*iceberg.StructType); !ok {
				return fmt.Errorf("column %q is a struct, the table's %q is %s", name, tf.Name, tf.Type)
			}
			if err := fieldsFit(ft.Fields(), schema, name+"."); err != nil {
				return err
			}
		case *iceberg.ListType:
			if _, ok := tf.Type.(*iceberg.ListType); !ok {
				return fmt.Errorf("column %q is a list, the table's %q is %s", name, tf.Name, tf.Type)
			}
			if err := fieldsFit([]iceberg.NestedField{ft.ElementField()}, schema, name+"."); err != nil {
				return err
			}
		case *iceberg.MapType:
			if _, ok := tf.Type.(*iceberg.MapType); !ok {
				return fmt.Errorf("column %q is a map, the table's %q is %s", name, tf.Name, tf.Type)
			}
			if err := fieldsFit([]iceberg.NestedField{ft.KeyField(), ft.ValueField()}, schema, name+"."); err != nil {
				return err
			}
		default:
			if !iceberg.TypesEqual(f.Type, tf.Type) && !iceberg.CanPromote(f.Type, tf.Type) {
				return fmt.Errorf("column %q is %s, which does not fit the table's %q of type %s", name, f.Type, tf.Name, tf.Type)
			}
		}
	}
	return nil
}

// footerMetrics derives Iceberg metrics from the footer; rows is the
// file's row count as the reader counts it (its row groups' rows: some
// writers left the footer's own count at 0).
func footerMetrics(pf *parquet.File, rows, size int64, schema *iceberg.Schema, mapping parquetfile.NameMapping) parquetfile.Metrics {
	m := parquetfile.Metrics{
		RecordCount: rows, FileSizeInBytes: size,
		ColumnSizes: map[int]int64{}, ValueCounts: map[int]int64{}, NullValueCounts: map[int]int64{},
		LowerBounds: map[int][]byte{}, UpperBounds: map[int][]byte{},
	}
	type leaf struct {
		col      *parquet.Column
		id       int
		topLevel bool
	}
	var leaves []leaf
	// Names map top-level columns only; nested leaves count when they
	// carry their own field ids.
	var walk func(c *parquet.Column, id int, top bool)
	walk = func(c *parquet.Column, id int, top bool) {
		if c.Leaf() {
			if id != 0 {
				leaves = append(leaves, leaf{col: c, id: id, topLevel: top && !c.Repeated()})
			}
			return
		}
		for _, ch := range c.Columns() {
			walk(ch, ch.ID(), false)
		}
	}
	for _, c := range pf.Root().Columns() {
		id := c.ID()
		if id == 0 && mapping != nil {
			path := []string{c.Name()}
			if c.Leaf() && c.Repeated() {
				// an unannotated repeated column is a list of itself:
				// its values are the element's
				path = append(path, "element")
			}
			id, _ = mapping(path)
		}
		walk(c, id, true)
	}
	// Footer metadata only: the column chunk accessors of the Parquet
	// library decode statistics without checking their lengths.
	rgMeta := pf.Metadata().RowGroups
	for _, l := range leaves {
		idx := l.col.Index()
		kind := l.col.Type().Kind()
		var lo, hi []byte
		// Unsigned statistics order as unsigned numbers, not as
		// Iceberg's signed bounds: counts only.
		boundsOK, nullsKnown := l.topLevel && !parquetfile.IsUnsignedInt(l.col.Type()), true
		for g := range rgMeta {
			if idx < 0 || idx >= len(rgMeta[g].Columns) {
				boundsOK, nullsKnown = false, false
				continue
			}
			md := &rgMeta[g].Columns[idx].MetaData
			m.ColumnSizes[l.id] += md.TotalCompressedSize
			m.ValueCounts[l.id] += md.NumValues
			st := &md.Statistics
			noStats := st.MinValue == nil && st.MaxValue == nil && st.Min == nil && st.Max == nil && st.NullCount == 0
			if noStats {
				nullsKnown = false
			}
			m.NullValueCounts[l.id] += st.NullCount
			if !boundsOK || md.NumValues == st.NullCount && !noStats {
				continue // all nulls: no bounds to merge
			}
			if st.MinValue == nil || st.MaxValue == nil {
				boundsOK = false
				continue
			}
			if lo == nil || compareStat(kind, st.MinValue, lo) < 0 {
				lo = st.MinValue
			}
			if hi == nil || compareStat(kind, st.MaxValue, hi) > 0 {
				hi = st.MaxValue
			}
		}
		if !nullsKnown {
			delete(m.NullValueCounts, l.id)
		}
		if !boundsOK || lo == nil {
			continue
		}
		tf, ok := schema.FindFieldByID(l.id)
		if !ok {
			continue
		}
		if lb, ok := boundBytes(tf.Type, kind, lo); ok {
			if ub, ok := boundBytes(tf.Type, kind, hi); ok {
				m.LowerBounds[l.id], m.UpperBounds[l.id] = lb, ub
			}
		}
	}
	return m
}

// plainInt decodes a PLAIN statistic of the given width (false when the
// footer holds the wrong number of bytes).
func plainInt(b []byte, width int) (int64, bool) {
	switch {
	case width == 4 && len(b) == 4:
		return int64(int32(binary.LittleEndian.Uint32(b))), true
	case width == 8 && len(b) == 8:
		return int64(binary.LittleEndian.Uint64(b)), true
	}
	return 0, false
}

// compareStat orders two PLAIN statistics of a physical type; malformed
// ones compare equal (boundBytes then refuses them).
func compareStat(kind parquet.Kind, a, b []byte) int {
	switch kind {
	case parquet.Int32, parquet.Int64:
		w := 4
		if kind == parquet.Int64 {
			w = 8
		}
		x, ok1 := plainInt(a, w)
		y, ok2 := plainInt(b, w)
		if !ok1 || !ok2 {
			return 0
		}
		return cmp.Compare(x, y)
	}
	return bytes.Compare(a, b)
}

// boundBytes serializes a footer bound as the table's type, for the types
// whose Parquet ordering is Iceberg's.
func boundBytes(t iceberg.Type, kind parquet.Kind, b []byte) ([]byte, bool) {
	var x any
	switch t.(type) {
	case iceberg.BooleanType:
		if kind != parquet.Boolean || len(b) != 1 || b[0] > 1 {
			return nil, false
		}
		x = b[0] == 1
	case iceberg.IntType, iceberg.DateType:
		n, ok := plainInt(b, 4)
		if kind != parquet.Int32 || !ok {
			return nil, false
		}
		x = int32(n)
		if _, isDate := t.(iceberg.DateType); isDate {
			x = iceberg.Date(n)
		}
	case iceberg.LongType:
		w := 8
		if kind == parquet.Int32 {
			w = 4
		} else if kind != parquet.Int64 {
			return nil, false
		}
		n, ok := plainInt(b, w)
		if !ok {
			return nil, false
		}
		x = n
	case iceberg.StringType:
		if kind != parquet.ByteArray || !utf8.Valid(b) {
			return nil, false
		}
		x = string(b)
	default:
		return nil, false
	}
	out, err := iceberg.SerializeValue(t, x)
	return out, err == nil
}
