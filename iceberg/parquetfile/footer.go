package parquetfile

import (
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// createdBy follows the "<app> version <version>" form readers parse.
const createdBy = "icesql version 0"

// fileLayout is the footer schema of a file and its leaf columns in order.
type fileLayout struct {
	elements     []format.SchemaElement
	columnOrders []format.ColumnOrder
	leaves       []leafLayout
}

type leafLayout struct {
	path   []string
	kind   format.Type
	width  int
	maxDef byte
	maxRep byte
}

// layoutFor derives the footer schema from the parquet-go schema of the
// Iceberg schema: parquet-go serialises an empty file's footer, whose
// schema elements (ids, logical and converted types) are reused as is.
func layoutFor(s *iceberg.Schema) (*fileLayout, error) {
	ps, err := parquetSchema(s)
	if err != nil {
		return nil, err
	}
	cfg, err := parquet.NewWriterConfig(ps)
	if err != nil {
		return nil, fmt.Errorf("parquetfile: %w", err)
	}
	pw := parquet.NewWriter(io.Discard, cfg)
	if err := pw.Close(); err != nil {
		return nil, fmt.Errorf("parquetfile: %w", err)
	}
	md := pw.File().Metadata()
	lay := &fileLayout{elements: slices.Clone(md.Schema), columnOrders: slices.Clone(md.ColumnOrders)}
	for _, path := range ps.Columns() {
		lc, ok := ps.Lookup(path...)
		if !ok {
			return nil, fmt.Errorf("parquetfile: internal error: no column %v", path)
		}
		t := lc.Node.Type()
		ll := leafLayout{path: path, kind: *t.PhysicalType(), maxDef: byte(lc.MaxDefinitionLevel), maxRep: byte(lc.MaxRepetitionLevel)}
		if ll.kind == format.FixedLenByteArray {
			ll.width = t.Length()
		}
		lay.leaves = append(lay.leaves, ll)
	}
	if len(lay.columnOrders) != len(lay.leaves) {
		return nil, fmt.Errorf("parquetfile: internal error: %d column orders for %d columns", len(lay.columnOrders), len(lay.leaves))
	}
	return lay, nil
}

func (w *Writer) writeFooter() error {
	md := format.FileMetaData{
		Version:      1,
		Schema:       w.layout.elements,
		NumRows:      w.rows,
		RowGroups:    w.rowGroups,
		CreatedBy:    createdBy,
		ColumnOrders: w.layout.columnOrders,
	}
	for _, k := range slices.Sorted(maps.Keys(w.opts.KeyValueMetadata)) {
		md.KeyValueMetadata = append(md.KeyValueMetadata, format.KeyValue{Key: k, Value: w.opts.KeyValueMetadata[k]})
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return fmt.Errorf("parquetfile: encoding footer: %w", err)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	b = append(b, "PAR1"...)
	_, err = w.out.Write(b)
	return err
}
