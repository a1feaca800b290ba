package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/hamba/avro/v2"
)

// dec is the decoding state for one Avro block: hamba's Reader for the
// values, plus the block length, which bounds every array count (an item
// takes at least one byte unless its type is empty).
type dec struct {
	r     *avro.Reader
	limit int64
}

// readerConfig caps one string or bytes value: hamba allocates the
// declared length before it finds the data short.
var readerConfig = avro.Config{MaxByteSliceSize: 4 << 20, MaxSliceAllocSize: 4 << 20}.Freeze()

func newDec() *dec { return &dec{r: avro.NewReader(nil, 0, avro.WithReaderConfig(readerConfig))} }

func (d *dec) reset(data []byte) {
	d.r.Reset(data)
	d.r.Error = nil
	d.limit = int64(len(data))
}

func (d *dec) fail(op, msg string) {
	if d.r.Error == nil {
		d.r.ReportError(op, msg)
	}
}

// fixed reads an Avro fixed value, refusing sizes beyond the block.
func (d *dec) fixed(size int) []byte {
	if int64(size) > d.limit || size < 0 {
		d.fail("fixed", fmt.Sprintf("fixed size %d exceeds the block size", size))
		return nil
	}
	out := make([]byte, size)
	d.r.Read(out)
	return out
}

// blockCount reads an array or map block header; 0 ends the sequence.
func (d *dec) blockCount() int64 {
	n, _ := d.r.ReadBlockHeader()
	if d.r.Error != nil {
		return 0
	}
	if n < 0 || n > d.limit {
		d.fail("array", fmt.Sprintf("block count %d exceeds the block size", n))
		return 0
	}
	return n
}

// maxSchemaDepth stops recursive or absurdly deep writer schemas.
const maxSchemaDepth = 32

func deref(s avro.Schema) avro.Schema {
	for i := 0; i < maxSchemaDepth; i++ {
		ref, ok := s.(*avro.RefSchema)
		if !ok {
			return s
		}
		s = ref.Schema()
	}
	return s
}

// fieldID reads an Avro field's Iceberg "field-id" attribute.
func fieldID(f *avro.Field) (int, bool) {
	return intProp(f.Prop("field-id"))
}

func intProp(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= math.MaxInt32 {
			return int(x), true
		}
	case int:
		return x, true
	case int64:
		return int(x), true
	case json.Number:
		n, err := x.Int64()
		return int(n), err == nil
	}
	return 0, false
}

// nullable splits ["null", T] (either order) into T and its branch index;
// a non-union schema is returned as is with branch -1.
func nullable(s avro.Schema) (avro.Schema, int, error) {
	s = deref(s)
	u, ok := s.(*avro.UnionSchema)
	if !ok {
		return s, -1, nil
	}
	types := u.Types()
	if len(types) == 1 {
		return deref(types[0]), -1, nil // a one-branch union still carries its index
	}
	if len(types) != 2 {
		return nil, 0, errors.New("only [\"null\", T] unions are allowed")
	}
	switch {
	case types[0].Type() == avro.Null:
		return deref(types[1]), 1, nil
	case types[1].Type() == avro.Null:
		return deref(types[0]), 0, nil
	}
	return nil, 0, errors.New("only [\"null\", T] unions are allowed")
}

// optional wraps a value reader for a possibly-nullable schema; the bool
// result is false for null.
func optional[T any](s avro.Schema, base func(avro.Schema) (func(*dec) T, error)) (func(*dec) (T, bool), error) {
	inner, branch, err := nullable(s)
	if err != nil {
		return nil, err
	}
	read, err := base(inner)
	if err != nil {
		return nil, err
	}
	if branch < 0 {
		if u, ok := deref(s).(*avro.UnionSchema); ok && len(u.Types()) == 1 {
			return func(d *dec) (T, bool) {
				if idx := d.r.ReadLong(); idx != 0 {
					d.fail("union", fmt.Sprintf("branch %d out of range", idx))
				}
				return read(d), true
			}, nil
		}
		return func(d *dec) (T, bool) { return read(d), true }, nil
	}
	want := int64(branch)
	return func(d *dec) (T, bool) {
		var zero T
		idx := d.r.ReadLong()
		switch {
		case idx == want:
			return read(d), true
		case idx == 1-want:
			return zero, false
		}
		d.fail("union", fmt.Sprintf("branch %d out of range", idx))
		return zero, false
	}, nil
}

func typeError(s avro.Schema, want string) error {
	return fmt.Errorf("avro type %s where %s was expected", s.Type(), want)
}

func longBase(s avro.Schema) (func(*dec) int64, error) {
	switch s.Type() {
	case avro.Long:
		return func(d *dec) int64 { return d.r.ReadLong() }, nil
	case avro.Int:
		return func(d *dec) int64 { return int64(d.r.ReadInt()) }, nil
	}
	return nil, typeError(s, "long")
}

func intBase(s avro.Schema) (func(*dec) int32, error) {
	if s.Type() == avro.Int {
		return func(d *dec) int32 { return d.r.ReadInt() }, nil
	}
	return nil, typeError(s, "int")
}

func boolBase(s avro.Schema) (func(*dec) bool, error) {
	if s.Type() == avro.Boolean {
		return func(d *dec) bool { return d.r.ReadBool() }, nil
	}
	return nil, typeError(s, "boolean")
}

func stringBase(s avro.Schema) (func(*dec) string, error) {
	switch s.Type() {
	case avro.String:
		return func(d *dec) string { return d.r.ReadString() }, nil
	case avro.Bytes:
		return func(d *dec) string { return string(d.r.ReadBytes()) }, nil
	}
	return nil, typeError(s, "string")
}

func bytesBase(s avro.Schema) (func(*dec) []byte, error) {
	switch s.Type() {
	case avro.Bytes:
		return func(d *dec) []byte { return d.r.ReadBytes() }, nil
	case avro.String:
		return func(d *dec) []byte { return []byte(d.r.ReadString()) }, nil
	case avro.Fixed:
		size := s.(*avro.FixedSchema).Size()
		return func(d *dec) []byte { return d.fixed(size) }, nil
	}
	return nil, typeError(s, "bytes")
}

// arrayBase reads an Avro array of items.
func arrayBase[T any](item func(avro.Schema) (func(*dec) T, error)) func(avro.Schema) (func(*dec) []T, error) {
	return func(s avro.Schema) (func(*dec) []T, error) {
		a, ok := s.(*avro.ArraySchema)
		if !ok {
			return nil, typeError(s, "array")
		}
		read, err := item(deref(a.Items()))
		if err != nil {
			return nil, err
		}
		return func(d *dec) []T {
			out := []T{}
			for n := d.blockCount(); n > 0; n = d.blockCount() {
				for i := int64(0); i < n && d.r.Error == nil; i++ {
					out = append(out, read(d))
				}
			}
			return out
		}, nil
	}
}

// pair is one entry of an int-keyed map stored as an array of records.
type pair[V any] struct {
	k int32
	v V
}

// mapBase reads Iceberg's int-keyed map encoding: an array of records
// whose key and value fields are found by field id (or by the names
// "key"/"value" when ids are missing).
func mapBase[V any](keyID, valueID int, value func(avro.Schema) (func(*dec) V, error)) func(avro.Schema) (func(*dec) []pair[V], error) {
	item := func(s avro.Schema) (func(*dec) pair[V], error) {
		rec, ok := s.(*avro.RecordSchema)
		if !ok {
			return nil, typeError(s, "key/value record")
		}
		steps := make([]func(*dec, *pair[V]), 0, 2)
		var haveKey, haveValue bool
		for _, f := range rec.Fields() {
			id, _ := fieldID(f)
			switch {
			case id == keyID || (id == 0 && f.Name() == "key"):
				k, err := intBase(deref(f.Type()))
				if err != nil {
					return nil, err
				}
				haveKey = true
				steps = append(steps, func(d *dec, p *pair[V]) { p.k = k(d) })
			case id == valueID || (id == 0 && f.Name() == "value"):
				v, err := value(deref(f.Type()))
				if err != nil {
					return nil, err
				}
				haveValue = true
				steps = append(steps, func(d *dec, p *pair[V]) { p.v = v(d) })
			default:
				skip, err := skipper(f.Type(), 0)
				if err != nil {
					return nil, err
				}
				steps = append(steps, func(d *dec, _ *pair[V]) { skip(d) })
			}
		}
		if !haveKey || !haveValue {
			return nil, fmt.Errorf("map record %s lacks key %d or value %d", rec.Name(), keyID, valueID)
		}
		return func(d *dec) pair[V] {
			var p pair[V]
			for _, st := range steps {
				st(d, &p)
			}
			return p
		}, nil
	}
	return arrayBase(item)
}

// skipper reads past a value of any Avro type.
func skipper(s avro.Schema, depth int) (func(*dec), error) {
	if depth > maxSchemaDepth {
		return nil, errors.New("schema nested too deeply")
	}
	s = deref(s)
	switch t := s.(type) {
	case *avro.PrimitiveSchema:
		switch t.Type() {
		case avro.Null:
			return func(*dec) {}, nil
		case avro.Boolean:
			return func(d *dec) { d.r.SkipBool() }, nil
		case avro.Int:
			return func(d *dec) { d.r.SkipInt() }, nil
		case avro.Long:
			return func(d *dec) { d.r.SkipLong() }, nil
		case avro.Float:
			return func(d *dec) { d.r.SkipFloat() }, nil
		case avro.Double:
			return func(d *dec) { d.r.SkipDouble() }, nil
		case avro.String, avro.Bytes:
			return func(d *dec) { d.r.SkipBytes() }, nil
		}
	case *avro.FixedSchema:
		n := t.Size()
		return func(d *dec) {
			if int64(n) > d.limit {
				d.fail("fixed", fmt.Sprintf("fixed size %d exceeds the block size", n))
				return
			}
			d.r.SkipNBytes(n)
		}, nil
	case *avro.EnumSchema:
		return func(d *dec) { d.r.SkipInt() }, nil
	case *avro.RecordSchema:
		steps := make([]func(*dec), 0, len(t.Fields()))
		for _, f := range t.Fields() {
			st, err := skipper(f.Type(), depth+1)
			if err != nil {
				return nil, err
			}
			steps = append(steps, st)
		}
		return func(d *dec) {
			for _, st := range steps {
				st(d)
			}
		}, nil
	case *avro.ArraySchema:
		item, err := skipper(t.Items(), depth+1)
		if err != nil {
			return nil, err
		}
		return func(d *dec) {
			for n := d.blockCount(); n > 0; n = d.blockCount() {
				for i := int64(0); i < n && d.r.Error == nil; i++ {
					item(d)
				}
			}
		}, nil
	case *avro.MapSchema:
		val, err := skipper(t.Values(), depth+1)
		if err != nil {
			return nil, err
		}
		return func(d *dec) {
			for n := d.blockCount(); n > 0; n = d.blockCount() {
				for i := int64(0); i < n && d.r.Error == nil; i++ {
					d.r.SkipString()
					val(d)
				}
			}
		}, nil
	case *avro.UnionSchema:
		branches := make([]func(*dec), 0, len(t.Types()))
		for _, b := range t.Types() {
			st, err := skipper(b, depth+1)
			if err != nil {
				return nil, err
			}
			branches = append(branches, st)
		}
		return func(d *dec) {
			idx := d.r.ReadLong()
			if idx < 0 || idx >= int64(len(branches)) {
				d.fail("union", fmt.Sprintf("branch %d out of range", idx))
				return
			}
			branches[idx](d)
		}, nil
	}
	return nil, fmt.Errorf("cannot skip avro type %s", s.Type())
}
