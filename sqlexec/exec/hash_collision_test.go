package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The string probes take the first slot whose hash tag matches as a
// candidate and only then compare bytes. These tests force every key
// onto one hash, so each candidate but the right one is a collision
// that must be probed past, and a key the table lacks must come back
// as a miss.

// stringArray builds a String array; nil is NULL.
func stringArray(keys ...*string) *array.String {
	b := array.NewStringBuilder(memory.NewGoAllocator())
	defer b.Release()
	for _, k := range keys {
		if k == nil {
			b.AppendNull()
		} else {
			b.Append(*k)
		}
	}
	return b.NewStringArray()
}

func sp(s string) *string { return &s }

func TestJoinTableStringTagCollisions(t *testing.T) {
	const h = 0xabcd_0000_0000_0005 // one tag and one home slot for all
	other := uint64(0x1234_0000_0000_0005)
	build := stringArray(sp("a"), sp("b"), sp("c"), sp("dd"), sp("a"))
	jt, _ := newJoinTable([]arrow.Array{build}, build.Len(), false)
	defer jt.release()
	clear(jt.slots)
	jt.index([]uint64{h, h, h, other, h}, make([]bool, 5))

	probe := stringArray(sp("b"), sp("a"), sp("c"), sp("x"), sp("dd"), nil, sp("a"))
	defer probe.Release()
	hashes := []uint64{h, h, h, h, other, 0, other}
	n := probe.Len()
	heads, cand := make([]int32, n), make([]uint32, n)
	for r := range heads {
		heads[r], cand[r] = -1, noCand
	}
	jt.probeStrings(probe, true, hashes, heads, cand)
	// "a" under another hash's tag is not found: the tag differs
	want := []int32{1, 0, 2, -1, 3, -1, -1}
	for r := range want {
		if heads[r] != want[r] {
			t.Errorf("probe row %d: head %d, want %d (all %v)", r, heads[r], want[r], heads)
		}
	}
	if jt.next[0] != 4 || jt.next[4] != -1 {
		t.Errorf("key a's chain is %d -> %d, want 0 -> 4 -> -1", jt.next[0], jt.next[4])
	}
}

func TestGroupTableStringTagCollisions(t *testing.T) {
	const h = 0xabcd_0000_0000_0009
	gt := newGroupTable(1)
	gt.str = true
	for _, k := range []string{"a", "bb", "c", "a-much-longer-key-than-the-rest"} {
		gt.strAdd([]byte(k), h)
	}
	probe := stringArray(sp("c"), sp("a-much-longer-key-than-the-rest"), sp("zz"), sp("a"), sp("bb"))
	defer probe.Release()
	offsets, data := stringParts(probe)
	n := probe.Len()
	hashes, ids := make([]uint64, n), make([]int32, n)
	for r := range ids {
		hashes[r], ids[r] = h, unresolved
	}
	gt.probeWith(offsets, data, hashes, ids, make([]uint32, n))
	want := []int32{2, 3, unresolved, 0, 1}
	for r := range want {
		if ids[r] != want[r] {
			t.Errorf("probe row %d: group %d, want %d (all %v)", r, ids[r], want[r], ids)
		}
	}
	for i, k := range []string{"a", "bb", "c", "zz"} {
		g, ok := gt.strFind([]byte(k), h)
		if wantOK := i < 3; ok != wantOK || (ok && g != int32(i)) {
			t.Errorf("strFind(%q) = %d, %v", k, g, ok)
		}
	}
}
