package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/variant"
	"github.com/icesql/icesql/iceberg"
	pq "github.com/parquet-go/parquet-go"
)

// shreddedCase is a shredding schema (the typed_value's Arrow type, as
// arrow-go's NewShreddedVariantType takes it) and documents shredded
// through it; "" is a SQL NULL.
type shreddedCase struct {
	name  string
	typed arrow.DataType
	docs  []string
}

func shreddedCases() []shreddedCase {
	obj := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "d", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.FixedWidthTypes.Boolean})})
	// (a list in an object: arrow-go's shredding fails to write rows
	// without it; the corpus's cases read such files)
	docs := []string{`{"a": 1, "b": "x", "c": [1.5, 2], "d": {"x": true}}`, `{"a": "not an int", "z": [1, {"q": null}]}`,
		`{"b": null, "c": [0.5, "y"], "d": {"x": 3, "y": 4}}`, `{"c": [0.5], "d": "flat"}`, `[1, 2]`, `"text"`, `null`, "", `12`, `{}`}
	return []shreddedCase{
		{"int64", arrow.PrimitiveTypes.Int64, []string{`34`, `null`, `"n/a"`, `100`, "", `1.5`, `{"a": 1}`}},
		{"string", arrow.BinaryTypes.String, []string{`"a"`, `"a string longer than sixty-three bytes, so it is not a short string"`, `7`, ""}},
		{"double", arrow.PrimitiveTypes.Float64, []string{`1.25`, `-0.0`, `true`}},
		{"bool", arrow.FixedWidthTypes.Boolean, []string{`true`, `false`, `null`}},
		// arrow-go's shredding (v18.8) writes the row after an empty
		// array with an empty typed_value list beside its value (a
		// conflict icesql refuses, as Iceberg's Java reader does), and
		// loses an array after a SQL NULL: the empty array comes last
		{"list", arrow.ListOf(arrow.BinaryTypes.String), []string{`["comedy", "drama"]`, `["horror", null]`, `[1, "a"]`, `"x"`, `null`, "", `[]`}},
		{"object", obj, docs},
	}
}

// writeShredded writes docs as a variant column "v" (field id 1) shredded
// by typed, with arrow-go's pqarrow.
func writeShredded(t testing.TB, typed arrow.DataType, docs []string) ([]byte, []variant.Value) {
	t.Helper()
	vt := extensions.NewShreddedVariantType(typed)
	sc := arrow.NewSchema([]arrow.Field{{Name: "v", Type: vt, Nullable: true,
		Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"1"})}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	vals := make([]variant.Value, len(docs))
	for i, doc := range docs {
		vb := b.Field(0).(*extensions.VariantBuilder)
		if doc == "" {
			vb.AppendNull()
			continue
		}
		v, err := variant.ParseJSON(doc, false)
		if err != nil {
			t.Fatal(err)
		}
		vals[i] = v
		vb.Append(v)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), vals
}

// Files with shredded variant columns (written by arrow-go: primitives,
// lists, objects with nested objects and lists, partially shredded and
// unshredded rows) read back as the values written, unshredded.
func TestVariantShreddedRead(t *testing.T) {
	s := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "v", Type: iceberg.VariantType{}})
	for _, c := range shreddedCases() {
		t.Run(c.name, func(t *testing.T) {
			data, want := writeShredded(t, c.typed, c.docs)
			r, err := Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			if !isShreddedVariant(r.file.Root().Columns()[0]) {
				t.Fatal("arrow-go wrote no typed_value")
			}
			tbl := readAll(t, data, s, ReadOptions{BatchSize: 3})
			defer tbl.Release()
			got := column(t, tbl, 0)
			defer got.Release()
			va, ok := got.(*extensions.VariantArray)
			if !ok {
				t.Fatalf("read as %T", got)
			}
			if _, ok := va.Storage().(*array.Struct).DataType().(*arrow.StructType).FieldIdx("typed_value"); ok {
				t.Fatal("read shredded: want the unshredded storage")
			}
			for i, doc := range c.docs {
				if va.Storage().IsNull(i) != (doc == "") {
					t.Fatalf("row %d: SQL null %v, doc %q", i, va.Storage().IsNull(i), doc)
				}
				if doc == "" {
					continue
				}
				g, err := va.Value(i)
				if err != nil {
					t.Fatalf("row %d: %v", i, err)
				}
				gj, _ := g.MarshalJSON()
				wj, _ := want[i].MarshalJSON()
				if string(gj) != string(wj) {
					t.Errorf("row %d: %s, want %s", i, gj, wj)
				}
			}
		})
	}
}

// A shredded variant nested in a struct and in a list is reassembled
// where it stands, its nulls (of the variant and of the struct or list
// holding it) kept.
func TestVariantShreddedNested(t *testing.T) {
	vt := extensions.NewShreddedVariantType(arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}))
	id := func(n int) arrow.Metadata {
		return arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{fmt.Sprint(n)})
	}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "s", Nullable: true, Metadata: id(1), Type: arrow.StructOf(arrow.Field{Name: "v", Type: vt, Nullable: true, Metadata: id(2)})},
		{Name: "l", Nullable: true, Metadata: id(3), Type: arrow.ListOfField(arrow.Field{Name: "element", Type: vt, Nullable: true, Metadata: id(4)})},
	}, nil)
	parse := func(doc string) variant.Value {
		v, err := variant.ParseJSON(doc, false)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	sb, lb := b.Field(0).(*array.StructBuilder), b.Field(1).(*array.ListBuilder)
	svb, lvb := sb.FieldBuilder(0).(*extensions.VariantBuilder), lb.ValueBuilder().(*extensions.VariantBuilder)
	// row 0: s.v shredded, l of three; row 1: s null, l null; row 2: s.v
	// null, l empty; row 3: s.v unshredded, l of a null variant
	sb.Append(true)
	svb.Append(parse(`{"a": 1, "b": 2}`))
	lb.Append(true)
	lvb.Append(parse(`{"a": 5}`))
	lvb.AppendNull()
	lvb.Append(parse(`"x"`))
	sb.AppendNull()
	lb.AppendNull()
	sb.Append(true)
	svb.AppendNull()
	lb.Append(true)
	sb.Append(true)
	svb.Append(parse(`[true]`))
	lb.Append(true)
	lvb.Append(parse(`null`))
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	s := iceberg.MustSchema(0,
		iceberg.NestedField{ID: 1, Name: "s", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{{ID: 2, Name: "v", Type: iceberg.VariantType{}}}}},
		iceberg.NestedField{ID: 3, Name: "l", Type: &iceberg.ListType{ElementID: 4, Element: iceberg.VariantType{}}},
	)
	tbl := readAll(t, buf.Bytes(), s, ReadOptions{})
	defer tbl.Release()
	st := column(t, tbl, 0)
	defer st.Release()
	l := column(t, tbl, 1)
	defer l.Release()
	text := func(a arrow.Array, i int) string {
		va := a.(*extensions.VariantArray)
		if va.Storage().IsNull(i) {
			return "NULL"
		}
		v, err := va.Value(i)
		if err != nil {
			return "error: " + err.Error()
		}
		j, _ := v.MarshalJSON()
		return string(j)
	}
	var got []string
	sa := st.(*array.Struct)
	la := l.(*array.List)
	for i := range 4 {
		row := "s NULL"
		if !sa.IsNull(i) {
			row = "s.v " + text(sa.Field(0), i)
		}
		if la.IsNull(i) {
			row += " | l NULL"
		} else {
			from, to := la.ValueOffsets(i)
			var elems []string
			for j := from; j < to; j++ {
				elems = append(elems, text(la.ListValues(), int(j)))
			}
			row += " | l [" + strings.Join(elems, ", ") + "]"
		}
		got = append(got, row)
	}
	want := []string{
		`s.v {"a":1,"b":2} | l [{"a":5}, NULL, "x"]`,
		`s NULL | l NULL`,
		`s.v NULL | l []`,
		`s.v [true] | l [null]`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// shredArrays builds one-row arrays for the assembler's tests.
type shredArrays struct{ t *testing.T }

func (s shredArrays) bin(v []byte) arrow.Array {
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	if v == nil {
		b.AppendNull()
	} else {
		b.Append(v)
	}
	return b.NewArray()
}

func (s shredArrays) i32(v *int32) arrow.Array {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	if v == nil {
		b.AppendNull()
	} else {
		b.Append(*v)
	}
	return b.NewArray()
}

func (s shredArrays) group(fields ...arrow.Array) *array.Struct {
	names := make([]string, len(fields))
	for k := range fields {
		names[k] = fmt.Sprint("f", k)
	}
	st, err := array.NewStructArray(fields, names)
	if err != nil {
		s.t.Fatal(err)
	}
	return st
}

// Rows whose value and typed_value contradict each other, values that
// do not parse and shredded fields the metadata lacks are each a
// ShreddedVariantError naming the column, never a panic or a guess.
func TestShreddedVariantRowErrors(t *testing.T) {
	a := shredArrays{t}
	seven, big := int32(7), int32(300)
	// metadata of names a, b; an object {b: 7}; the int32 7
	meta := []byte{0x11, 0x02, 0x00, 0x01, 0x02, 'a', 'b'}
	objB := []byte{0x02, 0x01, 0x01, 0x00, 0x05, 0x14, 0x07, 0x00, 0x00, 0x00}
	int7 := []byte{0x14, 0x07, 0x00, 0x00, 0x00}
	prim := func(p byte) *shredType { return &shredType{kind: shredPrimitive, prim: p} }
	object := func(names ...string) *shredType {
		s := &shredType{kind: shredObject, names: names}
		for _, n := range names {
			s.fields = append(s.fields, shredPair{col: "v.typed_value." + n, value: 0, typed: 1, shape: prim(vpInt32)})
		}
		return s
	}
	for _, c := range []struct {
		name  string
		meta  []byte
		shape *shredType
		value []byte
		typed arrow.Array
		want  string // "" reads
	}{
		{"primitive", meta, prim(vpInt32), nil, a.i32(&seven), ""},
		{"value only", meta, prim(vpInt32), int7, a.i32(nil), ""},
		{"primitive conflict", meta, prim(vpInt32), int7, a.i32(&seven), "conflicting value and typed_value"},
		{"int8 out of range", meta, prim(vpInt8), nil, a.i32(&big), "out of the range of INT(8)"},
		{"typed as another type", meta, prim(vpInt64), nil, a.i32(&seven), "not variant type"},
		{"empty value", meta, prim(vpInt32), []byte{}, a.i32(nil), "empty value"},
		{"object", meta, object("a"), objB, a.group(a.group(a.bin(nil), a.i32(&seven))), ""},
		{"non-object value with shredded fields", meta, object("a"), int7, a.group(a.group(a.bin(nil), a.i32(&seven))), "non-object value with shredded fields"},
		{"truncated object value", meta, object("a"), objB[:6], a.group(a.group(a.bin(nil), a.i32(nil))), "value:"},
		{"field not in metadata", meta, object("c"), nil, a.group(a.group(a.bin(nil), a.i32(&seven))), `shredded field "c" is not in the variant metadata`},
		{"metadata version", []byte{0x02, 0x00, 0x00}, prim(vpInt32), nil, a.i32(&seven), "metadata version"},
		{"metadata truncated", []byte{0x11, 0x05, 0x00}, prim(vpInt32), nil, a.i32(&seven), "metadata truncated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			va := &variantAssembler{col: "v"}
			p := &shredPair{col: "v", value: 0, typed: 1, shape: c.shape}
			err := va.useMetadata(c.meta)
			var out []byte
			if err == nil {
				out, _, err = va.pair(p, a.bin(c.value), c.typed, 0)
			}
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := valueSize(out); err != nil {
					t.Fatalf("%x: %v", out, err)
				}
				return
			}
			var se *ShreddedVariantError
			if !errors.As(err, &se) || !errors.Is(err, iceberg.ErrInvalidDataFile) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(se.Column, "v") {
				t.Fatalf("got %v, want a ShreddedVariantError with %q", err, c.want)
			}
		})
	}
}

// typed_value columns of types the spec's table does not list are
// refused by name; those it lists map to their variant primitive.
func TestShreddedPrimitiveTypes(t *testing.T) {
	for _, c := range []struct {
		typ  pq.Type
		prim byte
		bad  bool
	}{
		{pq.Int(8).Type(), vpInt8, false},
		{pq.Int(16).Type(), vpInt16, false},
		{pq.Int(32).Type(), vpInt32, false},
		{pq.Int(64).Type(), vpInt64, false},
		{pq.Uint(32).Type(), 0, true},
		{pq.String().Type(), vpString, false},
		{pq.Date().Type(), vpDate, false},
		{pq.UUID().Type(), vpUUID, false},
		{pq.Decimal(2, 9, pq.Int32Type).Type(), vpDecimal4, false},
		{pq.Decimal(2, 18, pq.Int64Type).Type(), vpDecimal8, false},
		{pq.Timestamp(pq.Millisecond).Type(), 0, true},
		{pq.FixedLenByteArrayType(4), 0, true},
		{pq.Int96Type, 0, true},
		{pq.JSON().Type(), 0, true},
	} {
		_, prim, _, err := shreddedPrimitive(c.typ)
		if (err != nil) != c.bad || prim != c.prim {
			t.Errorf("%v: variant type %d, %v", c.typ, prim, err)
		}
	}
}
