package parquetfile

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

func fieldIDOf(f arrow.Field) (int, bool) {
	i := f.Metadata.FindKey("PARQUET:field_id")
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(f.Metadata.Values()[i])
	return n, err == nil
}
