package maintenance

import (
	"math"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestCompareSortValues(t *testing.T) {
	asc := iceberg.SortField{Direction: iceberg.SortAsc, NullOrder: iceberg.NullsFirst}
	descNullsLast := iceberg.SortField{Direction: iceberg.SortDesc, NullOrder: iceberg.NullsLast}
	tests := []struct {
		name  string
		a, b  any
		field iceberg.SortField
		want  int
	}{
		{"ascending", int64(1), int64(2), asc, -1},
		{"descending", int64(1), int64(2), descNullsLast, 1},
		{"null first", nil, int64(2), asc, -1},
		{"null last", nil, int64(2), descNullsLast, 1},
		{"two nulls", nil, nil, asc, 0},
		{"NaN after infinity", math.NaN(), math.Inf(1), asc, 1},
		{"negative zero before zero", math.Copysign(0, -1), 0.0, asc, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compareSortValues(tt.a, tt.b, tt.field); got != tt.want {
				t.Errorf("compareSortValues(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
		})
	}
}
