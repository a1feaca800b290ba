package iceberg

import "math"

func (BucketTransform) CanTransform(src Type) bool {
	switch src.(type) {
	case IntType, LongType, DecimalType, DateType, TimeType, TimestampType, TimestampTzType,
		TimestampNsType, TimestampTzNsType,
		StringType, UUIDType, FixedType, BinaryType:
		return true
	}
	return false
}

func (BucketTransform) ResultType(Type) Type { return IntType{} }

// Apply returns the bucket (int32) of v, or nil for null and for values of
// types that cannot be bucketed.
func (t BucketTransform) Apply(v any) any {
	switch v.(type) {
	case bool, float32, float64:
		return nil
	}
	h, ok := HashValue(v)
	if !ok || t.N <= 0 {
		return nil
	}
	return int32(int64(h&math.MaxInt32) % int64(t.N))
}
