package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/parquet/variant"
)

// IsVariant reports Arrow's variant extension type (Iceberg's variant).
func IsVariant(t arrow.DataType) bool {
	_, ok := t.(*extensions.VariantType)
	return ok
}

// VariantToJSON renders each variant as JSON text (SQL NULL stays NULL, a
// variant null is the text null): CAST(variant AS STRING) and to_json.
func VariantToJSON(ec *EvalContext, a arrow.Array) (arrow.Array, error) {
	va, ok := a.(*extensions.VariantArray)
	if !ok {
		return nil, &CastError{Value: "variant", From: a.DataType().String(), To: "STRING"}
	}
	b := array.NewStringBuilder(ec.Mem)
	defer b.Release()
	b.Reserve(va.Len())
	for i := range va.Len() {
		if va.Storage().IsNull(i) {
			b.AppendNull()
			continue
		}
		v, err := va.Value(i)
		if err != nil {
			return nil, &CastError{Value: "variant", From: "VARIANT", To: "STRING"}
		}
		text, err := v.MarshalJSON()
		if err != nil {
			return nil, &CastError{Value: "variant", From: "VARIANT", To: "STRING"}
		}
		b.Append(string(text))
	}
	return b.NewArray(), nil
}

// variantAt is row i of a variant array in the ValueAt form: a
// variant.Value holding its own copy of the bytes.
func variantAt(a *extensions.VariantArray, i int) any {
	v, err := a.Value(i)
	if err != nil {
		// a malformed encoding shows as text rather than failing here;
		// functions reading the value report the error
		return fmt.Sprintf("<invalid variant: %v>", err)
	}
	return v.Clone()
}

func appendVariant(b *extensions.VariantBuilder, v any) error {
	x, ok := v.(variant.Value)
	if !ok {
		return fmt.Errorf("%w: cannot append %T to a variant", ErrUnsupportedType, v)
	}
	b.Append(x)
	return nil
}
