package load

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
)

// UINT_64 columns load into BIGINT while they fit, and float16 into
// fixed(2) as the half's bytes (concatenated_gzip_members.parquet and
// float16_*.parquet of parquet-testing were refused: "no Go value form").
func TestParquetUnsignedAndFloat16(t *testing.T) {
	ub := array.NewUint64Builder(memory.DefaultAllocator)
	ub.AppendValues([]uint64{1, math.MaxInt64, math.MaxInt64 + 1}, nil)
	u := ub.NewArray()
	defer u.Release()
	for i, want := range []any{int64(1), int64(math.MaxInt64)} {
		if got, err := parquetValue(u, i, iceberg.LongType{}); err != nil || got != want {
			t.Errorf("uint64 row %d: %v (%v), want %v", i, got, err, want)
		}
	}
	if _, err := parquetValue(u, 2, iceberg.LongType{}); !errors.Is(err, ErrBadValue) {
		t.Errorf("uint64 past BIGINT: %v, want ErrBadValue", err)
	}
	fb := array.NewFloat16Builder(memory.DefaultAllocator)
	fb.Append(float16.New(1))
	f := fb.NewArray()
	defer f.Release()
	got, err := parquetValue(f, 0, iceberg.FixedType{Length: 2})
	if b, ok := got.([]byte); err != nil || !ok || !bytes.Equal(b, []byte{0x00, 0x3c}) {
		t.Errorf("float16 1.0: %v (%v), want [0 3c]", got, err)
	}
	_ = arrow.Null
}
