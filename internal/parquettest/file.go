package parquettest

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Kind is a column's shape.
type Kind int

const (
	Int64     Kind = iota // optional int64; values int64 or nil
	String                // optional string; values string or nil
	Int64List             // optional list of optional int64; values []any or nil
)

// Column is one column of a file: every value of the one row group, each
// nil for NULL.
type Column struct {
	Name    string
	FieldID int  // 0: no field id; a list's element has FieldID+1
	Kind    Kind // the column's shape
	// Dictionary writes a dictionary page and RLE_DICTIONARY indexes
	// (for String; others are PLAIN).
	Dictionary bool
	Values     []any
}

// File returns a Parquet file of one row group holding cols, each in one
// uncompressed v1 data page whose levels and indexes are PaddedHybrid
// streams, as DuckDB writes them.
func File(cols ...Column) ([]byte, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("no columns")
	}
	rows := len(cols[0].Values)
	out := []byte("PAR1")
	schema := []format.SchemaElement{{Name: "duckdb_schema", NumChildren: thrift.New(int32(len(cols)))}}
	var chunks []format.ColumnChunk
	for _, c := range cols {
		if len(c.Values) != rows {
			return nil, fmt.Errorf("column %s has %d values, want %d", c.Name, len(c.Values), rows)
		}
		elems, path, err := c.schema()
		if err != nil {
			return nil, err
		}
		schema = append(schema, elems...)
		start := int64(len(out))
		var meta format.ColumnMetaData
		out, meta, err = c.chunk(out)
		if err != nil {
			return nil, err
		}
		meta.PathInSchema = path
		size := int64(len(out)) - start
		meta.TotalCompressedSize, meta.TotalUncompressedSize = size, size
		chunks = append(chunks, format.ColumnChunk{FileOffset: start, MetaData: meta})
	}
	fm := format.FileMetaData{
		Version:   1,
		Schema:    schema,
		NumRows:   int64(rows),
		RowGroups: []format.RowGroup{{Columns: chunks, NumRows: int64(rows), TotalByteSize: int64(len(out) - 4)}},
		CreatedBy: "parquettest (DuckDB layout)",
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &fm)
	if err != nil {
		return nil, err
	}
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...), nil
}

func (c Column) schema() ([]format.SchemaElement, []string, error) {
	opt := thrift.New(format.Optional)
	switch c.Kind {
	case Int64:
		return []format.SchemaElement{{Name: c.Name, Type: thrift.New(format.Int64), RepetitionType: opt, FieldID: int32(c.FieldID)}}, []string{c.Name}, nil
	case String:
		return []format.SchemaElement{{Name: c.Name, Type: thrift.New(format.ByteArray), RepetitionType: opt, FieldID: int32(c.FieldID),
			ConvertedType: thrift.New(deprecated.UTF8), LogicalType: format.LogicalType{Value: &format.StringType{}}}}, []string{c.Name}, nil
	case Int64List:
		return []format.SchemaElement{
			{Name: c.Name, RepetitionType: opt, NumChildren: thrift.New(int32(1)), FieldID: int32(c.FieldID),
				ConvertedType: thrift.New(deprecated.List), LogicalType: format.LogicalType{Value: &format.ListType{}}},
			{Name: "list", RepetitionType: thrift.New(format.Repeated), NumChildren: thrift.New(int32(1))},
			{Name: "element", Type: thrift.New(format.Int64), RepetitionType: opt, FieldID: int32(elementID(c.FieldID))},
		}, []string{c.Name, "list", "element"}, nil
	}
	return nil, nil, fmt.Errorf("column %s: unknown kind %d", c.Name, c.Kind)
}

func elementID(id int) int {
	if id == 0 {
		return 0
	}
	return id + 1
}

// levels flattens the column into repetition and definition levels and
// its defined leaf values.
func (c Column) levels() (rep, def []uint32, leaves []any, err error) {
	for i, v := range c.Values {
		if c.Kind != Int64List {
			if v == nil {
				def = append(def, 0)
			} else {
				def, leaves = append(def, 1), append(leaves, v)
			}
			continue
		}
		switch l := v.(type) {
		case nil:
			rep, def = append(rep, 0), append(def, 0)
		case []any:
			if len(l) == 0 {
				rep, def = append(rep, 0), append(def, 1)
			}
			for j, e := range l {
				rep = append(rep, min(uint32(j), 1))
				if e == nil {
					def = append(def, 2)
				} else {
					def, leaves = append(def, 3), append(leaves, e)
				}
			}
		default:
			return nil, nil, nil, fmt.Errorf("column %s row %d: %T is not a list", c.Name, i, v)
		}
	}
	return rep, def, leaves, nil
}

// chunk appends the column's pages to out.
func (c Column) chunk(out []byte) ([]byte, format.ColumnMetaData, error) {
	rep, def, leaves, err := c.levels()
	if err != nil {
		return nil, format.ColumnMetaData{}, err
	}
	meta := format.ColumnMetaData{Type: format.Int64, Codec: format.Uncompressed, NumValues: int64(len(def))}
	if c.Kind == String {
		meta.Type = format.ByteArray
	}
	maxDef := uint32(1)
	if c.Kind == Int64List {
		maxDef = 3
	}
	var body []byte
	if c.Kind == Int64List {
		body = appendLevels(body, 1, rep)
	}
	body = appendLevels(body, maxDef, def)
	enc := format.Plain
	if c.Dictionary {
		var dict []any
		var idx []uint32
		for _, v := range leaves {
			at := slices.Index(dict, v)
			if at < 0 {
				at = len(dict)
				dict = append(dict, v)
			}
			idx = append(idx, uint32(at))
		}
		page, err := plain(dict)
		if err != nil {
			return nil, meta, fmt.Errorf("column %s: %w", c.Name, err)
		}
		meta.DictionaryPageOffset = int64(len(out))
		if out, err = appendPage(out, format.PageHeader{Type: format.DictionaryPage,
			DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(dict)), Encoding: format.Plain})}, page); err != nil {
			return nil, meta, err
		}
		width := bitWidth(uint32(max(len(dict)-1, 0)))
		body = append(body, byte(width))
		body = append(body, PaddedHybrid(width, idx)...)
		enc = format.RLEDictionary
	} else {
		values, err := plain(leaves)
		if err != nil {
			return nil, meta, fmt.Errorf("column %s: %w", c.Name, err)
		}
		body = append(body, values...)
	}
	meta.Encoding = []format.Encoding{format.RLE, enc}
	meta.DataPageOffset = int64(len(out))
	out, err = appendPage(out, format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(format.DataPageHeader{
		NumValues: int32(len(def)), Encoding: enc, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}, body)
	return out, meta, err
}

// appendLevels appends a v1 page's level stream: a 4-byte length, then
// the hybrid runs.
func appendLevels(out []byte, maxLevel uint32, levels []uint32) []byte {
	runs := PaddedHybrid(bitWidth(maxLevel), levels)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(runs)))
	return append(out, runs...)
}

func appendPage(out []byte, h format.PageHeader, body []byte) ([]byte, error) {
	h.UncompressedPageSize, h.CompressedPageSize = int32(len(body)), int32(len(body))
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return nil, err
	}
	return append(append(out, hb...), body...), nil
}

// plain encodes int64 or string values PLAIN.
func plain(values []any) ([]byte, error) {
	var out []byte
	for _, v := range values {
		switch v := v.(type) {
		case int64:
			out = binary.LittleEndian.AppendUint64(out, uint64(v))
		case string:
			out = binary.LittleEndian.AppendUint32(out, uint32(len(v)))
			out = append(out, v...)
		default:
			return nil, fmt.Errorf("value %v of type %T", v, v)
		}
	}
	return out, nil
}

// bitWidth is the number of bits needed for values up to v.
func bitWidth(v uint32) uint {
	w := uint(0)
	for ; v > 0; v >>= 1 {
		w++
	}
	return w
}
