package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/corpustest"
)

// levelColumn is one leaf's contents as Parquet stores them: its values
// ([]int32 or []string) and their definition and repetition levels.
type levelColumn struct {
	vals     any
	def, rep []int16
}

// writeLevels writes one row group of rows rows: the leaves of root, in
// order, given level by level (arrow-go's column writers), so that any
// nesting a writer ever produced can be made.
func writeLevels(t *testing.T, root *schema.GroupNode, rows int, cols ...levelColumn) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root, file.WithWriterProps(parquet.NewWriterProperties(parquet.WithDictionaryDefault(false))))
	rg := w.AppendRowGroup()
	for _, c := range cols {
		cw, err := rg.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		switch v := c.vals.(type) {
		case []int32:
			_, err = cw.(*file.Int32ColumnChunkWriter).WriteBatch(v, c.def, c.rep)
		case []string:
			ba := make([]parquet.ByteArray, len(v))
			for i, s := range v {
				ba[i] = parquet.ByteArray(s)
			}
			_, err = cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(ba, c.def, c.rep)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := rg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	md, err := w.FileMetadata()
	if err != nil {
		t.Fatal(err)
	}
	if n := md.NumRows; n != int64(rows) {
		t.Fatalf("wrote %d rows, want %d", n, rows)
	}
	return buf.Bytes()
}

// describeType renders an Iceberg type with the required-ness of every
// nested field (a "!" after it).
func describeType(t iceberg.Type) string {
	req := func(r bool) string {
		if r {
			return "!"
		}
		return ""
	}
	switch t := t.(type) {
	case *iceberg.StructType:
		var parts []string
		for _, f := range t.FieldList {
			parts = append(parts, f.Name+req(f.Required)+": "+describeType(f.Type))
		}
		return "struct<" + strings.Join(parts, ", ") + ">"
	case *iceberg.ListType:
		return "list<" + describeType(t.Element) + req(t.ElementRequired) + ">"
	case *iceberg.MapType:
		return "map<" + describeType(t.Key) + ", " + describeType(t.Value) + req(t.ValueRequired) + ">"
	}
	return t.String()
}

// TestLegacyNesting reads lists and maps in every layout LogicalTypes.md
// tells readers to accept from existing data (its backward-compatibility
// rules for LIST and MAP, and unannotated repeated fields), written
// level by level: each gives the Iceberg type the rules give, and its
// rows.
func TestLegacyNesting(t *testing.T) {
	must := func(n schema.Node, err error) schema.Node {
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	rep, opt, req := parquet.Repetitions.Repeated, parquet.Repetitions.Optional, parquet.Repetitions.Required
	i32 := func(name string, r parquet.Repetition) schema.Node {
		return must(schema.NewPrimitiveNodeLogical(name, r, nil, parquet.Types.Int32, 0, -1))
	}
	str := func(name string, r parquet.Repetition) schema.Node {
		return must(schema.NewPrimitiveNodeLogical(name, r, schema.StringLogicalType{}, parquet.Types.ByteArray, 0, -1))
	}
	group := func(name string, r parquet.Repetition, fields ...schema.Node) schema.Node {
		return must(schema.NewGroupNode(name, r, fields, -1))
	}
	list := func(name string, r parquet.Repetition, repeated schema.Node) schema.Node {
		return must(schema.NewGroupNodeLogical(name, r, schema.FieldList{repeated}, schema.NewListLogicalType(), -1))
	}
	converted := func(name string, r parquet.Repetition, ct schema.ConvertedType, fields ...schema.Node) schema.Node {
		return must(schema.NewGroupNodeConverted(name, r, fields, ct, -1))
	}
	// three rows of one optional list column: [a, b], NULL, []
	abNullEmpty := func(vals any) levelColumn {
		return levelColumn{vals: vals, def: []int16{2, 2, 0, 1}, rep: []int16{0, 1, 0, 0}}
	}
	cases := []struct {
		name  string
		field schema.Node
		cols  []levelColumn
		rows  int
		typ   string // describeType of the column
		want  []string
	}{{
		name:  "rule 1: repeated primitive",
		field: list("my_list", opt, i32("element", rep)),
		cols:  []levelColumn{abNullEmpty([]int32{1, 2})},
		rows:  3, typ: "list<int!>", want: []string{"[1, 2]", "null", "[]"},
	}, {
		name:  "rule 2: repeated group of two fields",
		field: list("my_list", opt, group("element", rep, str("str", req), i32("num", req))),
		cols:  []levelColumn{abNullEmpty([]string{"a", "b"}), abNullEmpty([]int32{1, 2})},
		rows:  3, typ: "list<struct<str!: string, num!: int>!>", want: []string{`[{"a", 1}, {"b", 2}]`, "null", "[]"},
	}, {
		name:  "rule 3: repeated group of one repeated field",
		field: list("my_list", opt, list("element", rep, i32("item", rep))),
		// [[1, 2], [3]], NULL, [[]]
		cols: []levelColumn{{vals: []int32{1, 2, 3}, def: []int16{3, 3, 3, 0, 2}, rep: []int16{0, 2, 1, 0, 0}}},
		rows: 3, typ: "list<list<int!>!>", want: []string{"[[1, 2], [3]]", "null", "[[]]"},
	}, {
		name:  "rules 3 and 4: old_list_structure's list of lists",
		field: list("a", req, list("array", rep, i32("array", rep))),
		cols:  []levelColumn{{vals: []int32{1, 2, 3, 4}, def: []int16{2, 2, 2, 2}, rep: []int16{0, 2, 1, 2}}},
		rows:  1, typ: "list<list<int!>!>", want: []string{"[[1, 2], [3, 4]]"},
	}, {
		name:  "rule 4: one field in a group named array",
		field: list("my_list", opt, group("array", rep, str("str", req))),
		cols:  []levelColumn{abNullEmpty([]string{"a", "b"})},
		rows:  3, typ: "list<struct<str!: string>!>", want: []string{`[{"a"}, {"b"}]`, "null", "[]"},
	}, {
		name:  "rule 4: one field in a group named <list>_tuple",
		field: list("my_list", opt, group("my_list_tuple", rep, str("str", req))),
		cols:  []levelColumn{abNullEmpty([]string{"a", "b"})},
		rows:  3, typ: "list<struct<str!: string>!>", want: []string{`[{"a"}, {"b"}]`, "null", "[]"},
	}, {
		name:  "rule 5: one optional field in a group of another name",
		field: list("my_list", opt, group("element", rep, str("str", opt))),
		// ["a", NULL], NULL, []
		cols: []levelColumn{{vals: []string{"a"}, def: []int16{3, 2, 0, 1}, rep: []int16{0, 1, 0, 0}}},
		rows: 3, typ: "list<string>", want: []string{`["a", null]`, "null", "[]"},
	}, {
		name:  "unannotated repeated primitive",
		field: i32("num", rep),
		cols:  []levelColumn{{vals: []int32{1, 2, 3}, def: []int16{1, 1, 0, 1}, rep: []int16{0, 1, 0, 0}}},
		rows:  3, typ: "list<int!>", want: []string{"[1, 2]", "[]", "[3]"},
	}, {
		name:  "unannotated repeated group",
		field: group("my_list", rep, i32("num", req), str("str", opt)),
		cols: []levelColumn{
			{vals: []int32{1, 2}, def: []int16{1, 1, 0}, rep: []int16{0, 1, 0}},
			{vals: []string{"x"}, def: []int16{2, 1, 0}, rep: []int16{0, 1, 0}},
		},
		rows: 2, typ: "list<struct<num!: int, str: string>!>", want: []string{`[{1, "x"}, {2, null}]`, "[]"},
	}, {
		name:  "unannotated repeated primitive in a struct",
		field: group("s", opt, i32("xs", rep)),
		// {[1, 2]}, NULL, {[]}
		cols: []levelColumn{{vals: []int32{1, 2}, def: []int16{2, 2, 0, 1}, rep: []int16{0, 1, 0, 0}}},
		rows: 3, typ: "struct<xs!: list<int!>>", want: []string{"{[1, 2]}", "null", "{[]}"},
	}, {
		name: "MAP_KEY_VALUE in place of MAP",
		field: converted("my_map", opt, schema.ConvertedTypes.MapKeyValue,
			group("map", rep, str("key", req), i32("value", opt))),
		// {"a": 1, "b": NULL}, NULL, {}
		cols: []levelColumn{
			{vals: []string{"a", "b"}, def: []int16{2, 2, 0, 1}, rep: []int16{0, 1, 0, 0}},
			{vals: []int32{1}, def: []int16{3, 2, 0, 1}, rep: []int16{0, 1, 0, 0}},
		},
		rows: 3, typ: "map<string, int>", want: []string{`{"a": 1, "b": null}`, "null", "{}"},
	}, {
		name: "MAP over a MAP_KEY_VALUE group of other names",
		field: converted("my_map", opt, schema.ConvertedTypes.Map,
			converted("map", rep, schema.ConvertedTypes.MapKeyValue, str("str", req), i32("num", req))),
		cols: []levelColumn{abNullEmpty([]string{"a", "b"}), abNullEmpty([]int32{1, 2})},
		rows: 3, typ: "map<string, int!>", want: []string{`{"a": 1, "b": 2}`, "null", "{}"},
	}, {
		name: "MAP without values: the list of its keys",
		field: converted("my_map", opt, schema.ConvertedTypes.Map,
			group("key_value", rep, i32("key", req))),
		cols: []levelColumn{abNullEmpty([]int32{1, 2})},
		rows: 3, typ: "list<int!>", want: []string{"[1, 2]", "null", "[]"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := must(schema.NewGroupNode("schema", req, schema.FieldList{tc.field}, -1)).(*schema.GroupNode)
			data := writeLevels(t, root, tc.rows, tc.cols...)
			r, err := Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			s, err := r.Schema(func([]string) (int, bool) { n++; return n, true })
			if err != nil {
				t.Fatal(err)
			}
			if got := describeType(s.Fields()[0].Type); got != tc.typ {
				t.Errorf("type %s, want %s", got, tc.typ)
			}
			tbl, err := readByPath(data)
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Release()
			var got []string
			for _, row := range corpustest.Table(tbl) {
				got = append(got, strings.Join(row, " | "))
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("rows %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLegacyNestingRefused: layouts the rules give no meaning to are
// refused as invalid data files, and a table's list bound to a file's
// list of another depth is a type mismatch (never a panic or a loop).
func TestLegacyNestingRefused(t *testing.T) {
	must := func(n schema.Node, err error) schema.Node {
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	rep, req := parquet.Repetitions.Repeated, parquet.Repetitions.Required
	item := must(schema.NewPrimitiveNodeLogical("item", rep, nil, parquet.Types.Int32, 0, -1))
	// a repeated LIST serves only as the element of a 2-level list
	repeatedList := must(schema.NewGroupNodeLogical("l", rep, schema.FieldList{item}, schema.NewListLogicalType(), -1))
	root := must(schema.NewGroupNode("schema", req, schema.FieldList{repeatedList}, -1)).(*schema.GroupNode)
	data := writeLevels(t, root, 1, levelColumn{vals: []int32{1}, def: []int16{2}, rep: []int16{0}})
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Schema(func([]string) (int, bool) { return 1, true }); !errors.Is(err, iceberg.ErrInvalidDataFile) {
		t.Errorf("a repeated LIST as a field: %v, want iceberg.ErrInvalidDataFile", err)
	}

	// list<list<int>> in the table, list<int> (2-level) in the file
	flat := must(schema.NewGroupNodeLogical("l", req, schema.FieldList{item}, schema.NewListLogicalType(), -1))
	root = must(schema.NewGroupNode("schema", req, schema.FieldList{flat}, -1)).(*schema.GroupNode)
	data = writeLevels(t, root, 1, levelColumn{vals: []int32{1}, def: []int16{1}, rep: []int16{0}})
	r, err = Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{"l": 1, "l/element": 2, "l/element/element": 3}
	mapping := func(p []string) (int, bool) { id, ok := ids[strings.Join(p, "/")]; return id, ok }
	deep := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "l", Required: true, Type: &iceberg.ListType{
		ElementID: 2, ElementRequired: true, Element: &iceberg.ListType{ElementID: 3, ElementRequired: true, Element: iceberg.IntType{}}}})
	if _, err := r.NewRecordReader(t.Context(), deep, ReadOptions{NameMapping: mapping}); !errors.Is(err, iceberg.ErrTypeMismatch) {
		t.Errorf("list<list<int>> over a 2-level list<int>: %v, want iceberg.ErrTypeMismatch", err)
	}
}

// TestMapWithoutValues: a table's map over a MAP without values (which
// the file schema reads as the list of its keys) reads its values as
// missing, LogicalTypes.md's other reading: nulls.
func TestMapWithoutValues(t *testing.T) {
	must := func(n schema.Node, err error) schema.Node {
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	rep, opt, req := parquet.Repetitions.Repeated, parquet.Repetitions.Optional, parquet.Repetitions.Required
	key := must(schema.NewPrimitiveNodeLogical("key", req, nil, parquet.Types.Int32, 0, -1))
	m := must(schema.NewGroupNodeConverted("m", opt, schema.FieldList{
		must(schema.NewGroupNode("key_value", rep, schema.FieldList{key}, -1))}, schema.ConvertedTypes.Map, -1))
	root := must(schema.NewGroupNode("schema", req, schema.FieldList{m}, -1)).(*schema.GroupNode)
	data := writeLevels(t, root, 3, levelColumn{vals: []int32{1, 2}, def: []int16{2, 2, 0, 1}, rep: []int16{0, 1, 0, 0}})
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{"m": 1, "m/key": 2, "m/value": 3}
	mapping := func(p []string) (int, bool) { id, ok := ids[strings.Join(p, "/")]; return id, ok }
	s := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "m", Type: &iceberg.MapType{
		KeyID: 2, Key: iceberg.IntType{}, ValueID: 3, Value: iceberg.StringType{}}})
	rr, err := r.NewRecordReader(t.Context(), s, ReadOptions{NameMapping: mapping})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	rec, err := rr.Next()
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	var got []string
	for i := range int(rec.NumRows()) {
		got = append(got, corpustest.Value(rec.Column(0), i))
	}
	if want := []string{"{1: null, 2: null}", "null", "{}"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}
