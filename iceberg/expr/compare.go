package expr

import (
	"math/big"

	"github.com/icesql/icesql/iceberg"
)

// integerValue widens the integer-like kinds (int, long, date, time,
// timestamp) so that transform results and literals compare across kinds.
func integerValue(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case iceberg.Date:
		return int64(x), true
	case iceberg.Time:
		return int64(x), true
	case iceberg.Timestamp:
		return int64(x), true
	case iceberg.TimestampNano:
		return int64(x), true
	}
	return 0, false
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}
