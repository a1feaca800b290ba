package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// castNested converts a list, map or struct array to another type of the
// same kind by casting its children: ARRAY('a') built as list<item> into
// a column typed list<element>, or elements widened from int to long.
// ok is false when a and to are not two nested types of one kind.
func castNested(ec *EvalContext, a arrow.Array, to arrow.DataType) (out arrow.Array, ok bool, err error) {
	from := a.DataType()
	if from.ID() != to.ID() {
		return nil, false, nil
	}
	var childTypes []arrow.DataType
	switch t := to.(type) {
	case *arrow.ListType:
		childTypes = []arrow.DataType{t.Elem()}
	case *arrow.MapType:
		childTypes = []arrow.DataType{t.Elem()} // the struct of key and value
	case *arrow.StructType:
		if from.(*arrow.StructType).NumFields() != t.NumFields() {
			return nil, true, &CastError{Value: "struct", From: from.String(), To: to.String()}
		}
		for _, f := range t.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	default:
		return nil, false, nil
	}
	d := a.Data()
	children := make([]arrow.ArrayData, len(childTypes))
	var casts []arrow.Array
	defer func() { ReleaseArrays(casts) }()
	for i, ct := range childTypes {
		child := array.MakeFromData(d.Children()[i])
		c, err := Cast(ec, child, ct)
		child.Release()
		if err != nil {
			return nil, true, err
		}
		casts = append(casts, c)
		children[i] = c.Data()
	}
	nd := array.NewData(to, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd), true, nil
}
