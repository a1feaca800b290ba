package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Variants have no order and no equality (one value has many encodings,
// and the Iceberg spec defines no hash for them), so comparisons, ORDER
// BY, GROUP BY, DISTINCT, set operations other than UNION ALL and join
// keys over a variant are refused, as in Spark; to_json or variant_get
// give comparable values.

func variantRefused(what string) error {
	return invalid("%s a VARIANT is not supported: variants have no order or equality (compare to_json(v) or variant_get(v, path, type) instead)", what)
}

// CheckVariantUse walks a bound plan for variants used where values must
// compare.
func CheckVariantUse(p Plan) error {
	return uncomparable{
		is:     exec.IsVariant,
		refuse: func(what string, _ arrow.DataType) error { return variantRefused(what) },
	}.check(p)
}
