package parquetfile

import (
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
)

// checkExpected compares the footer with what the manifest says of the
// file (ReadOptions.ExpectedFieldIDs, ExpectedRows). Page checksums cover
// pages, not the footer: a damaged footer can decode to another valid one
// (a changed field id or column name, a dropped column, another row
// count) that would otherwise read back as nulls or wrong values.
func (r *Reader) checkExpected(projection *iceberg.Schema, opts ReadOptions) error {
	if opts.ExpectedRows > 0 && r.NumRows() != opts.ExpectedRows {
		return fmt.Errorf("%w: the footer has %d rows, the manifest records %d", ErrFooterMismatch, r.NumRows(), opts.ExpectedRows)
	}
	if len(opts.ExpectedFieldIDs) == 0 || !hasAnyID(r) {
		// A file without field ids (an import read through a name
		// mapping) is checked by its row count only.
		return nil
	}
	cols := map[int]*parquet.Column{}
	add := func(c *parquet.Column, path []string) {
		if id, ok := columnID(c, path, opts.NameMapping); ok {
			// Writers may put an element's id on a list's repeated group
			// too (iceberg-go's 3-level lists): the leaf is the column.
			if prev, dup := cols[id]; !dup || !prev.Leaf() && c.Leaf() {
				cols[id] = c
			}
		}
	}
	// walk registers c, filling a slot of repetition level rep, and the
	// columns under it by their mapping paths (a list's element named
	// "element", a map's key and value "key" and "value", as the spec's
	// name mapping names them), resolving lists and maps as the reader
	// does.
	var walk func(c *parquet.Column, path []string, rep int)
	walk = func(c *parquet.Column, path []string, rep int) {
		add(c, path)
		sub := func(name string) []string { return append(append([]string(nil), path...), name) }
		if group, elem := listElement(c, rep); elem != nil {
			if group != elem {
				add(group, sub("element"))
			}
			walk(elem, sub("element"), group.MaxRepetitionLevel())
			return
		}
		if kv, k, v := mapKeyValue(c, rep); k != nil {
			walk(k, sub("key"), kv.MaxRepetitionLevel())
			if v != nil {
				walk(v, sub("value"), kv.MaxRepetitionLevel())
			}
			return
		}
		for _, k := range c.Columns() {
			walk(k, sub(k.Name()), rep)
		}
	}
	for _, c := range r.file.Root().Columns() {
		walk(c, []string{c.Name()}, 0)
	}
	for _, id := range opts.ExpectedFieldIDs {
		f, ok := projection.FindFieldByID(id)
		if !ok {
			continue
		}
		if _, prim := f.Type.(iceberg.PrimitiveType); !prim {
			continue
		}
		want, err := leafType(f.Type)
		if err != nil {
			continue // variant, unknown and the like: no single leaf
		}
		c, ok := cols[id]
		if !ok {
			return fmt.Errorf("%w: field %q (id %d) is not in the file's schema", ErrFooterMismatch, f.Name, id)
		}
		if !c.Leaf() {
			return fmt.Errorf("%w: field %q (id %d) is a group in the file, not a %v column", ErrFooterMismatch, f.Name, id, f.Type)
		}
		if !physicalMatches(f.Type, want, c.Type()) {
			return fmt.Errorf("%w: field %q (id %d) is %v in the file, %v expected", ErrFooterMismatch, f.Name, id, c.Type().Kind(), want.Kind())
		}
	}
	return nil
}

// physicalMatches reports whether a file column of physical type got can
// hold the field's type t (written as want), allowing the promotions
// Iceberg permits: int to long, float to double, decimal precision.
func physicalMatches(t iceberg.Type, want, got parquet.Type) bool {
	if got.Kind() == want.Kind() {
		if want.Kind() == parquet.FixedLenByteArray {
			if _, dec := t.(iceberg.DecimalType); !dec && got.Length() != want.Length() {
				return false
			}
		}
		return true
	}
	switch t.(type) {
	case iceberg.LongType:
		return got.Kind() == parquet.Int32
	case iceberg.DoubleType:
		return got.Kind() == parquet.Float
	case iceberg.DecimalType:
		switch got.Kind() {
		case parquet.Int32, parquet.Int64, parquet.FixedLenByteArray, parquet.ByteArray:
			return true
		}
	case iceberg.StringType, iceberg.BinaryType:
		return got.Kind() == parquet.ByteArray
	}
	return false
}
