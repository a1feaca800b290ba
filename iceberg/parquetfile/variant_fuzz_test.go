package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/corpustest"
)

// FuzzShreddedVariantFile feeds arbitrary bytes, seeded with shredded
// variant files (arrow-go's, and parquet-testing's shredded_variant/
// cases when the corpus is at hand), through a full read with a name
// mapping: errors are fine, panics are not, and a failed read is
// iceberg.ErrInvalidDataFile.
func FuzzShreddedVariantFile(f *testing.F) {
	for _, c := range shreddedCases() {
		data, _ := writeShredded(f, c.typed, c.docs)
		f.Add(data)
	}
	if root := corpustest.Dir(); root != "" {
		for _, n := range []string{"case-001", "case-040", "case-043-INVALID", "case-045", "case-083", "case-087", "case-125-INVALID", "case-134"} {
			if data, err := os.ReadFile(filepath.Join(root, corpustest.VariantDir, n+".parquet")); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		ids := map[string]int{}
		mapping := func(path []string) (int, bool) {
			k := strings.Join(path, "\x00")
			if _, ok := ids[k]; !ok {
				ids[k] = len(ids) + 1
			}
			return ids[k], true
		}
		s, err := r.Schema(mapping)
		if err != nil {
			return
		}
		rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{NameMapping: mapping, BatchSize: 3})
		if err != nil {
			return
		}
		defer rr.Close()
		for {
			rec, err := rr.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, iceberg.ErrInvalidDataFile) {
					t.Fatalf("read error not ErrInvalidDataFile: %v", err)
				}
				return
			}
			rec.Release()
		}
	})
}

// FuzzShreddedVariantValue reassembles a partially shredded object from
// arbitrary metadata and value bytes (the shredded field "a" missing, an
// int32 field "b" present): the value must be read or refused with a
// ShreddedVariantError, never panic, and a read object must parse.
func FuzzShreddedVariantValue(f *testing.F) {
	f.Add([]byte{0x01, 0x00, 0x00}, []byte{0x00})
	f.Add([]byte{0x11, 0x03, 0x00, 0x01, 0x02, 0x03, 'a', 'b', 'c'}, []byte{0x02, 0x02, 0x00, 0x02, 0x00, 0x01, 0x02, 0x0c, 0x01, 0x0c})
	f.Add([]byte{0x11, 0x02, 0x00, 0x01, 0x02, 'a', 'b'}, []byte{0x02, 0x01, 0x00, 0x00, 0x02, 0x0c, 0x07})
	f.Fuzz(func(t *testing.T, meta, value []byte) {
		mem := memory.DefaultAllocator
		bin := func(v []byte) arrow.Array {
			b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
			defer b.Release()
			if v == nil {
				b.AppendNull()
			} else {
				b.Append(v)
			}
			return b.NewArray()
		}
		i32 := func(v int32) arrow.Array {
			b := array.NewInt32Builder(mem)
			defer b.Release()
			b.Append(v)
			return b.NewArray()
		}
		group := func(fields ...arrow.Array) *array.Struct {
			names := make([]string, len(fields))
			for k := range fields {
				names[k] = string(rune('p' + k))
			}
			st, err := array.NewStructArray(fields, names)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		a := group(bin(nil), i32(0))
		// field a: missing (value null, typed_value null)
		aNull := array.NewInt32Builder(mem)
		aNull.AppendNull()
		a = group(bin(nil), aNull.NewArray())
		aNull.Release()
		b := group(bin(nil), i32(7))
		typed := group(a, b)
		prim := &shredType{kind: shredPrimitive, prim: vpInt32}
		p := &shredPair{col: "v", value: 0, typed: 1, shape: &shredType{kind: shredObject, names: []string{"a", "b"},
			fields: []shredPair{{col: "v.typed_value.a", value: 0, typed: 1, shape: prim}, {col: "v.typed_value.b", value: 0, typed: 1, shape: prim}}}}
		va := &variantAssembler{col: "v"}
		if err := va.useMetadata(meta); err != nil {
			var se *ShreddedVariantError
			if !errors.As(err, &se) {
				t.Fatalf("metadata error %T: %v", err, err)
			}
			return
		}
		out, present, err := va.pair(p, bin(value), typed, 0)
		if err != nil {
			var se *ShreddedVariantError
			if !errors.As(err, &se) {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		if !present {
			t.Fatal("a present object read as missing")
		}
		if _, _, err := objectFields(out); err != nil {
			t.Fatalf("reassembled object %x does not parse: %v", out, err)
		}
	})
}
