package export

import (
	"bytes"
	"encoding/json"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// appendJSON appends row i of a as JSON: lists as arrays, structs as
// objects in field order, maps as objects (a key that is not a string is
// written as its JSON text), other values as Arrow marshals them.
func appendJSON(buf *bytes.Buffer, a arrow.Array, i int) error {
	if a.IsNull(i) {
		buf.WriteString("null")
		return nil
	}
	switch x := a.(type) {
	case *array.Map:
		start, end := x.ValueOffsets(i)
		keys, items := x.Keys(), x.Items()
		buf.WriteByte('{')
		for j := start; j < end; j++ {
			if j > start {
				buf.WriteByte(',')
			}
			if s, ok := keys.(*array.String); ok {
				k, _ := json.Marshal(s.Value(int(j)))
				buf.Write(k)
			} else {
				var kb bytes.Buffer
				if err := appendJSON(&kb, keys, int(j)); err != nil {
					return err
				}
				k, _ := json.Marshal(kb.String())
				buf.Write(k)
			}
			buf.WriteByte(':')
			if err := appendJSON(buf, items, int(j)); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	case array.ListLike:
		start, end := x.ValueOffsets(i)
		buf.WriteByte('[')
		for j := start; j < end; j++ {
			if j > start {
				buf.WriteByte(',')
			}
			if err := appendJSON(buf, x.ListValues(), int(j)); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case *array.Struct:
		st := x.DataType().(*arrow.StructType)
		buf.WriteByte('{')
		for f := 0; f < x.NumField(); f++ {
			if f > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(st.Field(f).Name)
			buf.Write(k)
			buf.WriteByte(':')
			if err := appendJSON(buf, x.Field(f), i); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	}
	enc, err := json.Marshal(a.GetOneForMarshal(i))
	if err != nil {
		return err
	}
	buf.Write(enc)
	return nil
}
