package exec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCountFewMatchesOneTally checks the interleaved tallies against a
// plain count, for batch lengths around the unrolling's step.
func TestCountFewMatchesOneTally(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, groups := range []int{1, 3, fewGroups} {
		for _, rows := range []int{0, 1, 5, 4*fewGroups - 1, 4 * fewGroups, 4*fewGroups + 3, 10007} {
			t.Run(fmt.Sprintf("groups=%d/rows=%d", groups, rows), func(t *testing.T) {
				ids := make([]int32, rows)
				for i := range ids {
					ids[i] = int32(rng.IntN(groups))
				}
				got, want := make([]int64, groups), make([]int64, groups)
				for g := range got {
					got[g], want[g] = int64(g), int64(g) // counts carried from earlier batches
				}
				countFew(got, ids)
				for _, g := range ids {
					want[g]++
				}
				for g := range want {
					if got[g] != want[g] {
						t.Fatalf("group %d: %d, want %d", g, got[g], want[g])
					}
				}
			})
		}
	}
}

// TestSumFewMatchesOneAddPerRow checks the register sums bit for bit
// against one add per row in row order, with values that make the
// order and the sign of zero visible: magnitudes far apart, -0, NaN and
// infinities, and sums carried from earlier batches.
func TestSumFewMatchesOneAddPerRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// finite specials keep the all-finite path (weights), the others
	// take the masked one
	finite := []float64{0, math.Copysign(0, -1), 1e308, -1e308, 5e-324, -5e-324, 1e16, -1}
	special := append([]float64{math.Inf(1), math.Inf(-1), math.NaN()}, finite...)
	for _, groups := range []int{1, 2, 3, 4} {
		for _, rows := range []int{64, 65, 1000} {
			for _, mode := range []string{"plain", "finite", "special"} {
				withSpecial := mode != "plain"
				t.Run(fmt.Sprintf("groups=%d/rows=%d/%s", groups, rows, mode), func(t *testing.T) {
					special := special
					if mode == "finite" {
						special = finite
					}
					ids, vals := make([]int32, rows), make([]float64, rows)
					for i := range ids {
						ids[i] = int32(rng.IntN(groups))
						vals[i] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(30)-15))
						if withSpecial && rng.IntN(8) == 0 {
							vals[i] = special[rng.IntN(len(special))]
						}
					}
					got, want := make([]float64, groups), make([]float64, groups)
					gotOK, wantOK := make([]bool, groups), make([]bool, groups)
					got[0], want[0] = 0.1, 0.1 // a sum carried from an earlier batch
					sumFew(got, gotOK, vals, ids)
					for i, g := range ids {
						want[g] += vals[i]
						wantOK[g] = true
					}
					for g := range want {
						if math.Float64bits(got[g]) != math.Float64bits(want[g]) || gotOK[g] != wantOK[g] {
							t.Fatalf("group %d: %v (%x) ok %v, want %v (%x) ok %v", g, got[g], math.Float64bits(got[g]), gotOK[g],
								want[g], math.Float64bits(want[g]), wantOK[g])
						}
					}
				})
			}
		}
	}
}
