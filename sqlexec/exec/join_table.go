package exec

import (
	"bytes"
	"hash/maphash"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// joinTable is the hash index of a join's build rows: open addressing over
// the distinct keys, each slot holding a hash tag and the first build row
// of its key, and a chain (next) through the key's other rows in build
// order. Probing hashes a whole batch's keys column by column and compares
// them with the build keys in place: no per-row allocation, no map.
//
// Keys compare as appendKey encodes them (NULLs match only with
// NullsEqual, +0 = -0, NaN = NaN). A single non-NULL-matching String,
// Int64 or Int32 key is hashed and compared as raw values; any other key
// through its encoding, kept in one arena.
type joinTable struct {
	mode  joinKeyMode
	keys  []arrow.Array // the build key columns (owned)
	mask  uint64
	slots []uint64 // 0: empty; else tag<<32 | (first row + 1)
	next  []int32  // per build row, the next row of its key (-1: none)
	// arena and offs hold each build row's encoded key (joinEncoded).
	arena []byte
	offs  []int32
	// byEnc answers probes whose key types differ from the build's in a
	// raw mode: the encoded key of each distinct key to its first row.
	encOnce sync.Once
	byEnc   map[string]int32
}

type joinKeyMode int

const (
	joinEncoded joinKeyMode = iota
	joinString
	joinInt64
	joinInt32
)

// newJoinTable indexes n build rows over keys (it takes them over). It
// reports whether a build row had a NULL key (such rows are left out
// unless nullsEqual).
func newJoinTable(keys []arrow.Array, n int, nullsEqual bool) (*joinTable, bool) {
	t := &joinTable{keys: keys, mode: joinEncoded}
	if len(keys) == 1 && !nullsEqual {
		switch keys[0].(type) {
		case *array.String:
			t.mode = joinString
		case *array.Int64:
			t.mode = joinInt64
		case *array.Int32:
			t.mode = joinInt32
		}
	}
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t.mask = uint64(size - 1)
	t.slots = make([]uint64, size)
	t.next = make([]int32, n)
	hashes := make([]uint64, n)
	skip := make([]bool, n)
	hasNull := false
	if t.mode == joinEncoded {
		t.offs = make([]int32, n+1)
		var null bool
		for r := 0; r < n; r++ {
			t.arena, null = appendRowKey(t.arena, keys, r)
			t.offs[r+1] = int32(len(t.arena))
			if null && !nullsEqual {
				skip[r], hasNull = true, true
				continue
			}
			hashes[r] = maphash.Bytes(rowHashSeed, t.arena[t.offs[r]:t.offs[r+1]])
		}
	} else {
		hasNull = t.hashRaw(keys[0], hashes, skip)
	}
	t.index(hashes, skip)
	return t, hasNull
}

// index puts the build rows (key hashes hashes, skip marking those left
// out) into the empty slots. Rows go in from the last, so each chain
// lists its rows in build order.
func (t *joinTable) index(hashes []uint64, skip []bool) {
	for r := len(hashes) - 1; r >= 0; r-- {
		if skip[r] {
			t.next[r] = -1
			continue
		}
		h := hashes[r]
		tag := h >> 32 << 32
		for i := h & t.mask; ; i = (i + 1) & t.mask {
			e := t.slots[i]
			if e == 0 {
				t.next[r] = -1
				t.slots[i] = tag | uint64(r+1)
				break
			}
			if e&^0xffffffff == tag {
				if m := int(uint32(e)) - 1; t.buildEqual(m, r) {
					t.next[r] = int32(m)
					t.slots[i] = tag | uint64(r+1)
					break
				}
			}
		}
	}
}

// hashRaw hashes a raw-mode key column, marking NULL rows in skip.
func (t *joinTable) hashRaw(a arrow.Array, hashes []uint64, skip []bool) bool {
	hasNull := a.NullN() > 0
	for r := range hashes {
		if hasNull && a.IsNull(r) {
			skip[r] = true
			continue
		}
		switch x := a.(type) {
		case *array.String:
			hashes[r] = maphash.String(rowHashSeed, x.Value(r))
		case *array.Int64:
			hashes[r] = mix64(uint64(x.Value(r)))
		case *array.Int32:
			hashes[r] = mix64(uint64(x.Value(r)))
		}
	}
	return hasNull
}

// buildEqual compares the keys of build rows a and b.
func (t *joinTable) buildEqual(a, b int) bool {
	switch t.mode {
	case joinString:
		k := t.keys[0].(*array.String)
		return k.Value(a) == k.Value(b)
	case joinInt64:
		k := t.keys[0].(*array.Int64).Int64Values()
		return k[a] == k[b]
	case joinInt32:
		k := t.keys[0].(*array.Int32).Int32Values()
		return k[a] == k[b]
	}
	return bytes.Equal(t.arena[t.offs[a]:t.offs[a+1]], t.arena[t.offs[b]:t.offs[b+1]])
}

// rawProbe reports whether probe keys can be compared as raw values.
func (t *joinTable) rawProbe(keys []arrow.Array) bool {
	if t.mode == joinEncoded || len(keys) != 1 {
		return false
	}
	switch keys[0].(type) {
	case *array.String:
		return t.mode == joinString
	case *array.Int64:
		return t.mode == joinInt64
	case *array.Int32:
		return t.mode == joinInt32
	}
	return false
}

// lookup sets heads[r] to the first build row matching probe row r's key
// (-1: none) and null[r] for probe rows with a NULL key that cannot
// match. buf is scratch space, returned for reuse.
func (t *joinTable) lookup(keys []arrow.Array, nullsEqual bool, heads []int32, null []bool, buf []byte) []byte {
	if t.rawProbe(keys) {
		t.lookupRaw(keys[0], heads, null)
		return buf
	}
	enc := t.mode == joinEncoded
	if !enc {
		t.encOnce.Do(t.indexEncoded)
	}
	for r := range heads {
		var isNull bool
		buf, isNull = appendRowKey(buf[:0], keys, r)
		heads[r] = -1
		if isNull && !nullsEqual {
			null[r] = true
			continue
		}
		if !enc {
			if m, ok := t.byEnc[string(buf)]; ok {
				heads[r] = m
			}
			continue
		}
		h := maphash.Bytes(rowHashSeed, buf)
		tag := h >> 32 << 32
		for i := h & t.mask; ; i = (i + 1) & t.mask {
			e := t.slots[i]
			if e == 0 {
				break
			}
			if e&^0xffffffff == tag {
				m := int(uint32(e)) - 1
				if bytes.Equal(t.arena[t.offs[m]:t.offs[m+1]], buf) {
					heads[r] = int32(m)
					break
				}
			}
		}
	}
	return buf
}

func (t *joinTable) lookupRaw(a arrow.Array, heads []int32, null []bool) {
	nulls := a.NullN() > 0
	switch x := a.(type) {
	case *array.String:
		t.lookupStrings(x, nulls, heads, null)
	case *array.Int64:
		lookupFixed(t, x.Int64Values(), t.keys[0].(*array.Int64).Int64Values(), x, nulls, heads, null)
	case *array.Int32:
		lookupFixed(t, x.Int32Values(), t.keys[0].(*array.Int32).Int32Values(), x, nulls, heads, null)
	}
}

// probeScratch is lookupStrings' per-batch scratch; the table is probed
// by several goroutines at once, so it cannot hold it.
type probeScratch struct {
	hashes []uint64
	cand   []uint32
}

var probeScratchPool = sync.Pool{New: func() any { return new(probeScratch) }}

// noCand marks a probe row without a candidate slot.
const noCand = ^uint32(0)

// lookupStrings is lookupRaw of a String key. With a large build nearly
// every slot and key read misses the cache, so the batch goes in phases
// whose iterations are independent and overlap their loads: hash every
// key, find every key's first slot with a matching tag, then compare
// every candidate's bytes; a false candidate (a tag collision) probes on
// alone. Offsets and bytes are read directly: String.Value's per-call
// offset arithmetic and checks cost a fifth of the probe.
func (t *joinTable) lookupStrings(x *array.String, nulls bool, heads []int32, null []bool) {
	pOffs, pData := stringParts(x)
	n := len(heads)
	sc := probeScratchPool.Get().(*probeScratch)
	defer probeScratchPool.Put(sc)
	if cap(sc.hashes) < n {
		sc.hashes, sc.cand = make([]uint64, n), make([]uint32, n)
	}
	hashes, cand := sc.hashes[:n], sc.cand[:n]
	for r := range heads {
		heads[r], cand[r] = -1, noCand
		if nulls && x.IsNull(r) {
			null[r] = true
			continue
		}
		hashes[r] = maphash.Bytes(rowHashSeed, pData[pOffs[r]:pOffs[r+1]]) // equals maphash.String of the build's keys
	}
	t.probeStrings(x, nulls, hashes, heads, cand)
}

// probeStrings is lookupStrings after hashing: heads[r] is -1 and
// cand[r] noCand for every row on entry.
func (t *joinTable) probeStrings(x *array.String, nulls bool, hashes []uint64, heads []int32, cand []uint32) {
	bOffs, bData := stringParts(t.keys[0].(*array.String))
	pOffs, pData := stringParts(x)
	slots, mask := t.slots, t.mask
	for r, h := range hashes {
		if nulls && x.IsNull(r) {
			continue
		}
		tag := h >> 32 << 32
		for i := h & mask; ; i = (i + 1) & mask {
			e := slots[i]
			if e == 0 {
				break
			}
			if e&^0xffffffff == tag {
				heads[r], cand[r] = int32(uint32(e))-1, uint32(i)
				break
			}
		}
	}
	for r, c := range cand {
		if c == noCand {
			continue
		}
		s := pData[pOffs[r]:pOffs[r+1]]
		if m := heads[r]; string(bData[bOffs[m]:bOffs[m+1]]) == string(s) {
			continue
		}
		heads[r] = -1
		tag := hashes[r] >> 32 << 32
		for i := (uint64(c) + 1) & mask; ; i = (i + 1) & mask {
			e := slots[i]
			if e == 0 {
				break
			}
			if e&^0xffffffff == tag {
				if m := int(uint32(e)) - 1; string(bData[bOffs[m]:bOffs[m+1]]) == string(s) {
					heads[r] = int32(m)
					break
				}
			}
		}
	}
}

// lookupFixed probes the table with fixed-width integer keys (one copy for
// Int64 and Int32: a type parameter, not two loops).
func lookupFixed[T int32 | int64](t *joinTable, v, bk []T, a arrow.Array, nulls bool, heads []int32, null []bool) {
	for r := range heads {
		heads[r] = -1
		if nulls && a.IsNull(r) {
			null[r] = true
			continue
		}
		h := mix64(uint64(v[r]))
		tag := h >> 32 << 32
		for i := h & t.mask; ; i = (i + 1) & t.mask {
			e := t.slots[i]
			if e == 0 {
				break
			}
			if e&^0xffffffff == tag {
				if m := int(uint32(e)) - 1; bk[m] == v[r] {
					heads[r] = int32(m)
					break
				}
			}
		}
	}
}

// indexEncoded maps each distinct key's encoding to its first row, for
// probes of another key type than a raw-mode build's.
func (t *joinTable) indexEncoded() {
	t.byEnc = map[string]int32{}
	var buf []byte
	for _, e := range t.slots {
		if e == 0 {
			continue
		}
		m := int(uint32(e)) - 1
		buf, _ = appendRowKey(buf[:0], t.keys, m)
		t.byEnc[string(buf)] = int32(m)
	}
}

// release drops the key columns.
func (t *joinTable) release() {
	if t != nil {
		ReleaseArrays(t.keys)
		t.keys = nil
	}
}

// stringParts are a string array's offsets (from its first row) and the
// bytes they index.
func stringParts(a *array.String) ([]int32, []byte) {
	var data []byte
	if b := a.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	return a.ValueOffsets(), data
}
