package parquetfile

import "github.com/apache/arrow-go/v18/arrow/decimal128"

type decimalNum = decimal128.Num

func decimalFromInt(v int64) decimal128.Num { return decimal128.FromI64(v) }
