package parquetfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg/arrowschema"
)

// shreddedVariant builds the unshredded variant array (metadata, value)
// of a shredded variant node from its columns' arrays, row by row, by
// VariantShredding.md's "Reconstructing a Shredded Variant". The values
// are encoded as Iceberg's Java reader serializes them (ShreddedObject,
// ValueArray, PrimitiveWrapper): object fields sorted by name with their
// values in that order, field ids as wide as the metadata dictionary's
// size needs, offsets as wide as the data needs, strings under 64 bytes
// as short strings. A missing value (both columns null) is a variant
// null where a value is required.
func (bt *batch) shreddedVariant(n *rnode, want int, validity *memory.Buffer, nulls int) (arrow.Array, error) {
	children := make([]arrow.Array, len(n.children))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range n.children {
		a, err := bt.build(c, want)
		if err != nil {
			return nil, err
		}
		children[i] = a
	}
	meta, ok := children[0].(*array.Binary)
	if !ok {
		return nil, shredErr(n.field.Name, "metadata is not binary")
	}
	va := &variantAssembler{col: n.variantColumn()}
	p := n.variant
	var value, typed arrow.Array
	if p.value >= 0 {
		value = children[p.value]
	}
	if p.typed >= 0 {
		typed = children[p.typed]
	}
	var bits []byte
	if validity != nil {
		bits = validity.Bytes()
	}
	vb := array.NewBinaryBuilder(bt.mem, arrow.BinaryTypes.Binary)
	defer vb.Release()
	vb.Reserve(want)
	for i := range want {
		if nulls > 0 && !bitutil.BitIsSet(bits, i) {
			vb.AppendNull()
			continue
		}
		if meta.IsNull(i) {
			return nil, shredErr(va.col, "metadata is null in a present variant")
		}
		if err := va.useMetadata(meta.Value(i)); err != nil {
			return nil, err
		}
		out, present, err := va.pair(p, value, typed, i)
		if err != nil {
			return nil, err
		}
		if !present {
			out = []byte{vpNull << 2}
		}
		vb.Append(out)
	}
	values := vb.NewArray()
	defer values.Release()
	data := array.NewData(n.arrowType, want, []*memory.Buffer{validity, nil},
		[]arrow.ArrayData{meta.Data(), values.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// variantColumn is the file path of a shredded variant node (its
// metadata leaf's name without the last part).
func (n *rnode) variantColumn() string {
	return strings.TrimSuffix(n.children[0].field.Name, ".metadata")
}

// variantAssembler reassembles the rows of one shredded variant column.
type variantAssembler struct {
	col    string
	meta   []byte         // the metadata of the current row
	names  []string       // its dictionary
	ids    map[string]int // name -> first id
	idSize int            // bytes of a field id in objects built here
}

// useMetadata parses a row's metadata (kept when it is the previous
// row's).
func (va *variantAssembler) useMetadata(m []byte) error {
	if va.ids != nil && bytes.Equal(m, va.meta) {
		return nil
	}
	names, err := variantDictionary(m)
	if err != nil {
		return shredErr(va.col, err.Error())
	}
	va.meta = append(va.meta[:0], m...)
	va.names = names
	va.ids = make(map[string]int, len(names))
	for i, s := range names {
		if _, dup := va.ids[s]; !dup {
			va.ids[s] = i
		}
	}
	va.idSize = uintSize(len(names))
	return nil
}

// pair reassembles one value/typed_value pair at row i; present is false
// when the value is missing (both null).
func (va *variantAssembler) pair(p *shredPair, value, typed arrow.Array, i int) ([]byte, bool, error) {
	col := p.col
	var raw []byte
	hasValue := value != nil && !value.IsNull(i)
	if hasValue {
		b, ok := value.(*array.Binary)
		if !ok {
			return nil, false, shredErr(col, "value is not binary")
		}
		raw = b.Value(i)
		if len(raw) == 0 {
			return nil, false, shredErr(col, "an empty value (no variant header)")
		}
	}
	if typed == nil || typed.IsNull(i) {
		return raw, hasValue, nil
	}
	switch p.shape.kind {
	case shredObject:
		out, err := va.object(col, p.shape, typed, raw, hasValue, i)
		return out, err == nil, err
	case shredArray:
		if hasValue {
			return nil, false, shredErr(col, "conflicting value and typed_value (a shredded array must have a null value)")
		}
		out, err := va.array(col, p.shape, typed, i)
		return out, err == nil, err
	}
	if hasValue {
		return nil, false, shredErr(col, "conflicting value and typed_value (a shredded primitive must have a null value)")
	}
	out, err := va.primitive(col+".typed_value", p.shape, typed, i)
	return out, err == nil, err
}

type objectEntry struct {
	name  string
	id    int
	value []byte
}

// object reassembles a shredded object: its shredded fields that are
// present, and the fields of the value (a partially shredded object)
// that are not shredded fields. A shredded field's value takes
// precedence over one of the same name in value, and a missing shredded
// field removes it (as Iceberg's Java reader does; such files are
// invalid).
func (va *variantAssembler) object(col string, s *shredType, typed arrow.Array, raw []byte, hasValue bool, i int) ([]byte, error) {
	st, ok := typed.(*array.Struct)
	if !ok || st.NumField() != len(s.fields) {
		return nil, shredErr(col, "typed_value is not a group of the shredded fields")
	}
	entries := make([]objectEntry, 0, len(s.fields))
	for k := range s.fields {
		f := &s.fields[k]
		group, ok := st.Field(k).(*array.Struct)
		if !ok {
			return nil, shredErr(col, "a shredded field is not a group")
		}
		if group.IsNull(i) {
			continue // an optional field group (the spec has them required): missing
		}
		var value, typed arrow.Array
		if f.value >= 0 {
			value = group.Field(f.value)
		}
		if f.typed >= 0 {
			typed = group.Field(f.typed)
		}
		b, present, err := va.pair(f, value, typed, i)
		if err != nil {
			return nil, err
		}
		if !present {
			continue
		}
		id, ok := va.ids[s.names[k]]
		if !ok {
			return nil, shredErr(col, fmt.Sprintf("shredded field %q is not in the variant metadata", s.names[k]))
		}
		entries = append(entries, objectEntry{name: s.names[k], id: id, value: b})
	}
	if hasValue {
		if raw[0]&3 != 2 {
			return nil, shredErr(col, "non-object value with shredded fields")
		}
		ids, vals, err := objectFields(raw)
		if err != nil {
			return nil, shredErr(col, "value: "+err.Error())
		}
		for k, id := range ids {
			if id >= len(va.names) {
				return nil, shredErr(col, fmt.Sprintf("value: field id %d past the metadata's %d names", id, len(va.names)))
			}
			name := va.names[id]
			if slices.Contains(s.names, name) {
				continue
			}
			entries = append(entries, objectEntry{name: name, id: id, value: vals[k]})
		}
	}
	slices.SortFunc(entries, func(a, b objectEntry) int { return strings.Compare(a.name, b.name) })
	return encodeObject(entries, va.idSize), nil
}

// array reassembles a shredded array; a missing element is a variant
// null (the spec has every element present).
func (va *variantAssembler) array(col string, s *shredType, typed arrow.Array, i int) ([]byte, error) {
	l, ok := typed.(*array.List)
	if !ok {
		return nil, shredErr(col, "typed_value is not a list")
	}
	es, ok := l.ListValues().(*array.Struct)
	if !ok {
		return nil, shredErr(col, "a shredded array's element is not a group")
	}
	start, end := l.ValueOffsets(i)
	var value, etyped arrow.Array
	if s.elem.value >= 0 {
		value = es.Field(s.elem.value)
	}
	if s.elem.typed >= 0 {
		etyped = es.Field(s.elem.typed)
	}
	elems := make([][]byte, 0, end-start)
	for j := start; j < end; j++ {
		if es.IsNull(int(j)) {
			elems = append(elems, []byte{vpNull << 2})
			continue
		}
		b, present, err := va.pair(s.elem, value, etyped, int(j))
		if err != nil {
			return nil, err
		}
		if !present {
			b = []byte{vpNull << 2}
		}
		elems = append(elems, b)
	}
	return encodeArray(elems), nil
}

// primitive encodes the typed_value at row i as a variant primitive.
func (va *variantAssembler) primitive(col string, s *shredType, typed arrow.Array, i int) ([]byte, error) {
	mismatch := func() ([]byte, error) {
		return nil, shredErr(col, fmt.Sprintf("typed_value read as %v, not variant type %d", typed.DataType(), s.prim))
	}
	hdr := func(t byte, n int) []byte {
		out := make([]byte, 1, 1+n)
		out[0] = t << 2
		return out
	}
	switch s.prim {
	case vpTrue:
		a, ok := typed.(*array.Boolean)
		if !ok {
			return mismatch()
		}
		if a.Value(i) {
			return hdr(vpTrue, 0), nil
		}
		return hdr(vpFalse, 0), nil
	case vpInt8, vpInt16, vpInt32:
		a, ok := typed.(*array.Int32)
		if !ok {
			return mismatch()
		}
		v := a.Value(i)
		switch s.prim {
		case vpInt8:
			if v < math.MinInt8 || v > math.MaxInt8 {
				return nil, shredErr(col, fmt.Sprintf("typed_value %d out of the range of INT(8)", v))
			}
			return append(hdr(vpInt8, 1), byte(v)), nil
		case vpInt16:
			if v < math.MinInt16 || v > math.MaxInt16 {
				return nil, shredErr(col, fmt.Sprintf("typed_value %d out of the range of INT(16)", v))
			}
			return binary.LittleEndian.AppendUint16(hdr(vpInt16, 2), uint16(v)), nil
		}
		return binary.LittleEndian.AppendUint32(hdr(vpInt32, 4), uint32(v)), nil
	case vpInt64:
		a, ok := typed.(*array.Int64)
		if !ok {
			return mismatch()
		}
		return binary.LittleEndian.AppendUint64(hdr(vpInt64, 8), uint64(a.Value(i))), nil
	case vpFloat:
		a, ok := typed.(*array.Float32)
		if !ok {
			return mismatch()
		}
		return binary.LittleEndian.AppendUint32(hdr(vpFloat, 4), math.Float32bits(a.Value(i))), nil
	case vpDouble:
		a, ok := typed.(*array.Float64)
		if !ok {
			return mismatch()
		}
		return binary.LittleEndian.AppendUint64(hdr(vpDouble, 8), math.Float64bits(a.Value(i))), nil
	case vpDecimal4, vpDecimal8, vpDecimal16:
		a, ok := typed.(*array.Decimal128)
		if !ok {
			return mismatch()
		}
		num := a.Value(i)
		switch s.prim {
		case vpDecimal4:
			out := append(hdr(vpDecimal4, 5), s.scale)
			return binary.LittleEndian.AppendUint32(out, uint32(num.LowBits())), nil
		case vpDecimal8:
			out := append(hdr(vpDecimal8, 9), s.scale)
			return binary.LittleEndian.AppendUint64(out, num.LowBits()), nil
		}
		out := append(hdr(vpDecimal16, 17), s.scale)
		out = binary.LittleEndian.AppendUint64(out, num.LowBits())
		return binary.LittleEndian.AppendUint64(out, uint64(num.HighBits())), nil
	case vpDate:
		a, ok := typed.(*array.Date32)
		if !ok {
			return mismatch()
		}
		return binary.LittleEndian.AppendUint32(hdr(vpDate, 4), uint32(a.Value(i))), nil
	case vpTime:
		a, ok := typed.(*array.Time64)
		if !ok {
			return mismatch()
		}
		return binary.LittleEndian.AppendUint64(hdr(vpTime, 8), uint64(a.Value(i))), nil
	case vpTimestampTz, vpTimestampNtz, vpTimestampTzNs, vpTimestampNs:
		a, ok := typed.(*array.Timestamp)
		if !ok {
			return mismatch()
		}
		return binary.LittleEndian.AppendUint64(hdr(s.prim, 8), uint64(a.Value(i))), nil
	case vpBinary:
		a, ok := typed.(*array.Binary)
		if !ok {
			return mismatch()
		}
		v := a.Value(i)
		out := binary.LittleEndian.AppendUint32(hdr(vpBinary, 4+len(v)), uint32(len(v)))
		return append(out, v...), nil
	case vpString:
		a, ok := typed.(*array.String)
		if !ok {
			return mismatch()
		}
		return encodeString(a.Value(i)), nil
	case vpUUID:
		a, ok := arrowschema.Storage(typed).(*array.FixedSizeBinary)
		if !ok || len(a.Value(i)) != 16 {
			return mismatch()
		}
		return append(hdr(vpUUID, 16), a.Value(i)...), nil
	}
	return mismatch()
}

// encodeString is a variant string: a short string up to 63 bytes.
func encodeString(s string) []byte {
	if len(s) <= 63 {
		out := make([]byte, 0, 1+len(s))
		return append(append(out, byte(len(s))<<2|1), s...)
	}
	out := make([]byte, 0, 5+len(s))
	out = append(out, vpString<<2)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
	return append(out, s...)
}

// uintSize is the bytes an unsigned value up to max needs (1 to 4).
func uintSize(max int) int {
	switch {
	case max <= 0xFF:
		return 1
	case max <= 0xFFFF:
		return 2
	case max <= 0xFFFFFF:
		return 3
	}
	return 4
}

func appendUint(out []byte, v, size int) []byte {
	for k := range size {
		out = append(out, byte(v>>(8*k)))
	}
	return out
}

// encodeObject encodes an object of entries sorted by name, values laid
// out in that order.
func encodeObject(entries []objectEntry, idSize int) []byte {
	data := 0
	for _, e := range entries {
		data += len(e.value)
	}
	n := len(entries)
	offSize := uintSize(data)
	large := n > 0xFF
	countSize := 1
	hdr := byte(idSize-1)<<2 | byte(offSize-1)
	if large {
		countSize = 4
		hdr |= 1 << 4
	}
	out := make([]byte, 0, 1+countSize+n*idSize+(n+1)*offSize+data)
	out = append(out, hdr<<2|2)
	out = appendUint(out, n, countSize)
	for _, e := range entries {
		out = appendUint(out, e.id, idSize)
	}
	off := 0
	for _, e := range entries {
		out = appendUint(out, off, offSize)
		off += len(e.value)
	}
	out = appendUint(out, off, offSize)
	for _, e := range entries {
		out = append(out, e.value...)
	}
	return out
}

// encodeArray encodes an array of encoded elements.
func encodeArray(elems [][]byte) []byte {
	data := 0
	for _, e := range elems {
		data += len(e)
	}
	n := len(elems)
	offSize := uintSize(data)
	large := n > 0xFF
	countSize := 1
	hdr := byte(offSize - 1)
	if large {
		countSize = 4
		hdr |= 1 << 2
	}
	out := make([]byte, 0, 1+countSize+(n+1)*offSize+data)
	out = append(out, hdr<<2|3)
	out = appendUint(out, n, countSize)
	off := 0
	for _, e := range elems {
		out = appendUint(out, off, offSize)
		off += len(e)
	}
	out = appendUint(out, off, offSize)
	for _, e := range elems {
		out = append(out, e...)
	}
	return out
}

// readUint reads a little-endian unsigned value of size bytes at b[at:].
func readUint(b []byte, at, size int) (int, bool) {
	if at < 0 || size < 1 || size > 4 || at+size > len(b) {
		return 0, false
	}
	v := 0
	for k := range size {
		v |= int(b[at+k]) << (8 * k)
	}
	return v, true
}

// variantDictionary parses variant metadata: version 1, then the
// dictionary of names.
func variantDictionary(m []byte) ([]string, error) {
	if len(m) == 0 {
		return nil, fmt.Errorf("empty metadata")
	}
	if m[0]&0x0F != 1 {
		return nil, fmt.Errorf("metadata version %d (want 1)", m[0]&0x0F)
	}
	offSize := int(m[0]>>6) + 1
	n, ok := readUint(m, 1, offSize)
	if !ok || n > len(m) {
		return nil, fmt.Errorf("metadata truncated")
	}
	start := 1 + offSize + (n+1)*offSize
	if start > len(m) {
		return nil, fmt.Errorf("metadata truncated")
	}
	names := make([]string, n)
	prev := 0
	for k := 0; k <= n; k++ {
		off, ok := readUint(m, 1+offSize+k*offSize, offSize)
		if !ok || off < prev || start+off > len(m) {
			return nil, fmt.Errorf("metadata offset %d out of order or bounds", k)
		}
		if k > 0 {
			names[k-1] = string(m[start+prev : start+off])
		}
		prev = off
	}
	return names, nil
}

// objectFields parses an encoded object: its field ids and each field's
// encoded value.
func objectFields(b []byte) ([]int, [][]byte, error) {
	if len(b) == 0 || b[0]&3 != 2 {
		return nil, nil, fmt.Errorf("not an object")
	}
	vh := b[0] >> 2
	offSize, idSize := int(vh&3)+1, int(vh>>2&3)+1
	countSize := 1
	if vh&0x10 != 0 {
		countSize = 4
	}
	n, ok := readUint(b, 1, countSize)
	if !ok || n > len(b) {
		return nil, nil, fmt.Errorf("object truncated")
	}
	idAt := 1 + countSize
	offAt := idAt + n*idSize
	dataAt := offAt + (n+1)*offSize
	if dataAt > len(b) {
		return nil, nil, fmt.Errorf("object truncated")
	}
	end, ok := readUint(b, offAt+n*offSize, offSize)
	if !ok || end > len(b)-dataAt {
		return nil, nil, fmt.Errorf("object data past its end")
	}
	data := b[dataAt : dataAt+end]
	ids := make([]int, n)
	vals := make([][]byte, n)
	for k := range n {
		id, _ := readUint(b, idAt+k*idSize, idSize)
		off, _ := readUint(b, offAt+k*offSize, offSize)
		if off >= len(data) {
			return nil, nil, fmt.Errorf("object field %d past its data", k)
		}
		size, err := valueSize(data[off:])
		if err != nil {
			return nil, nil, err
		}
		ids[k], vals[k] = id, data[off:off+size]
	}
	return ids, vals, nil
}

// valueSize is the length of the encoded value at the start of b.
func valueSize(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, fmt.Errorf("value truncated")
	}
	vh := int(b[0] >> 2)
	size := 0
	switch b[0] & 3 {
	case 0: // primitive
		switch vh {
		case vpNull, vpTrue, vpFalse:
			size = 1
		case vpInt8:
			size = 2
		case vpInt16:
			size = 3
		case vpInt32, vpDate, vpFloat:
			size = 5
		case vpInt64, vpDouble, vpTimestampTz, vpTimestampNtz, vpTime, vpTimestampTzNs, vpTimestampNs:
			size = 9
		case vpDecimal4:
			size = 6
		case vpDecimal8:
			size = 10
		case vpDecimal16:
			size = 18
		case vpUUID:
			size = 17
		case vpBinary, vpString:
			n, ok := readUint(b, 1, 4)
			if !ok {
				return 0, fmt.Errorf("value truncated")
			}
			size = 5 + n
		default:
			return 0, fmt.Errorf("unknown variant primitive type %d", vh)
		}
	case 1: // short string
		size = 1 + vh
	case 2: // object
		offSize, idSize := vh&3+1, vh>>2&3+1
		countSize := 1
		if vh&0x10 != 0 {
			countSize = 4
		}
		n, ok := readUint(b, 1, countSize)
		if !ok || n > len(b) {
			return 0, fmt.Errorf("value truncated")
		}
		at := 1 + countSize + n*idSize + n*offSize
		end, ok := readUint(b, at, offSize)
		if !ok {
			return 0, fmt.Errorf("value truncated")
		}
		size = at + offSize + end
	case 3: // array
		offSize := vh&3 + 1
		countSize := 1
		if vh&4 != 0 {
			countSize = 4
		}
		n, ok := readUint(b, 1, countSize)
		if !ok || n > len(b) {
			return 0, fmt.Errorf("value truncated")
		}
		at := 1 + countSize + n*offSize
		end, ok := readUint(b, at, offSize)
		if !ok {
			return 0, fmt.Errorf("value truncated")
		}
		size = at + offSize + end
	}
	if size > len(b) {
		return 0, fmt.Errorf("value truncated")
	}
	return size, nil
}
