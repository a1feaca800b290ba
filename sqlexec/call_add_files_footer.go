package sqlexec

import (
	"fmt"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/icesql/icesql/iceberg"
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
	fh, err := os.Open(path)
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
	return importedFile{path: path, metrics: footerMetrics(pf, st.Size(), schema, mapping)}, nil
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

// footerMetrics derives Iceberg metrics from the footer.
func footerMetrics(pf *parquet.File, size int64, schema *iceberg.Schema, mapping parquetfile.NameMapping) parquetfile.Metrics {
	m := parquetfile.Metrics{
		RecordCount: pf.NumRows(), FileSizeInBytes: size,
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
			id, _ = mapping([]string{c.Name()})
		}
		walk(c, id, true)
	}
	rgMeta := pf.Metadata().RowGroups
	for _, l := range leaves {
		var lo, hi *parquet.Value
		boundsOK := l.topLevel
		for g, rg := range pf.RowGroups() {
			idx := l.col.Index()
			if g < len(rgMeta) && idx < len(rgMeta[g].Columns) {
				m.ColumnSizes[l.id] += rgMeta[g].Columns[idx].MetaData.TotalCompressedSize
			}
			cc, ok := rg.ColumnChunks()[idx].(*parquet.FileColumnChunk)
			if !ok {
				boundsOK = false
				continue
			}
			m.ValueCounts[l.id] += cc.NumValues()
			m.NullValueCounts[l.id] += cc.NullCount()
			if !boundsOK {
				continue
			}
			mn, mx, ok := cc.Bounds()
			if !ok {
				if cc.NumValues() > cc.NullCount() {
					boundsOK = false // values without statistics: no bounds
				}
				continue
			}
			typ := l.col.Type()
			if lo == nil || typ.Compare(mn, *lo) < 0 {
				v := mn.Clone()
				lo = &v
			}
			if hi == nil || typ.Compare(mx, *hi) > 0 {
				v := mx.Clone()
				hi = &v
			}
		}
		if !boundsOK || lo == nil {
			continue
		}
		tf, ok := schema.FindFieldByID(l.id)
		if !ok {
			continue
		}
		if lb, ok := boundBytes(tf.Type, *lo); ok {
			if ub, ok := boundBytes(tf.Type, *hi); ok {
				m.LowerBounds[l.id], m.UpperBounds[l.id] = lb, ub
			}
		}
	}
	return m
}

// boundBytes serializes a footer bound as the table's type, for the types
// whose Parquet ordering is Iceberg's.
func boundBytes(t iceberg.Type, v parquet.Value) ([]byte, bool) {
	var x any
	switch t.(type) {
	case iceberg.BooleanType:
		if v.Kind() != parquet.Boolean {
			return nil, false
		}
		x = v.Boolean()
	case iceberg.IntType:
		if v.Kind() != parquet.Int32 {
			return nil, false
		}
		x = v.Int32()
	case iceberg.DateType:
		if v.Kind() != parquet.Int32 {
			return nil, false
		}
		x = iceberg.Date(v.Int32())
	case iceberg.LongType:
		switch v.Kind() {
		case parquet.Int32:
			x = int64(v.Int32())
		case parquet.Int64:
			x = v.Int64()
		default:
			return nil, false
		}
	case iceberg.StringType:
		if v.Kind() != parquet.ByteArray {
			return nil, false
		}
		x = string(v.ByteArray())
	default:
		return nil, false
	}
	b, err := iceberg.SerializeValue(t, x)
	return b, err == nil
}
