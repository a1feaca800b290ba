package exec

import (
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// groupTable maps group keys to dense group ids, in order of first
// appearance. It has two layouts:
//
//   - general: any key columns, each key as appendKey's encoding in
//     arena, slots of a hash tag and the id, and the key values boxed in
//     keys for the output;
//   - string (str): one String key column, the raw bytes in arena (the
//     NULL key, if seen, is group nullID with an empty range), 16-byte
//     slots that also hold where the key's bytes are, and whole batches
//     probed in phases (agg_strtable.go).
//
// A table starts in the string layout when its first batch has one
// String key column and moves to the general one (materialize) should a
// batch of another shape come.
type groupTable struct {
	slots  []uint64 // general: 0 empty; else tag<<32 | (id + 1)
	mask   uint64
	hashes []uint64 // per group, its key's hash (string layout: of the raw bytes)
	arena  []byte   // the groups' keys, back to back
	offs   []int32  // group g's key is arena[offs[g]:offs[g+1]]
	keys   [][]any  // general: per group column, per group

	str    bool
	sslots []strSlot // string layout's slots
	smask  uint64
	nullID int32 // string layout: the NULL key's group, or -1

	// per-batch scratch of the string layout
	hbuf   []uint64
	cbuf   []uint32
	recent [64]uint8 // assignSmall's cache (group ids below smallGroups)

	dict dictGroups // string layout: the groups of the last dictionary's entries

	buf     []byte
	nGroups int
	bytes   int64 // estimated footprint, for the memory budget
}

// groupSlotBytes is a general group's overhead besides its key: its
// slot (at most half the slots are used), hash and offset.
const groupSlotBytes = 2*8 + 8 + 4

func newGroupTable(cols int) *groupTable {
	return &groupTable{slots: make([]uint64, 16), mask: 15, offs: []int32{0}, keys: make([][]any, cols), nullID: -1}
}

// encode is group g's key in appendKey's encoding (the string layout
// builds it in gt.buf: use it before the next call).
func (gt *groupTable) encode(g int) []byte {
	if !gt.str {
		return gt.arena[gt.offs[g]:gt.offs[g+1]]
	}
	if int32(g) == gt.nullID {
		gt.buf = append(gt.buf[:0], 0)
		return gt.buf
	}
	k := gt.arena[gt.offs[g]:gt.offs[g+1]]
	gt.buf = append(binary.AppendUvarint(append(gt.buf[:0], 1), uint64(len(k))), k...)
	return gt.buf
}

func hashKey(enc []byte) uint64 { return maphash.Bytes(rowHashSeed, enc) }

// findEnc returns the group of the key whose appendKey encoding is enc.
func (gt *groupTable) findEnc(enc []byte) (int32, bool) {
	if !gt.str {
		return gt.find(enc, hashKey(enc))
	}
	if len(enc) == 0 {
		return -1, false
	}
	if enc[0] == 0 {
		return gt.nullID, gt.nullID >= 0
	}
	l, n := binary.Uvarint(enc[1:])
	if n <= 0 || uint64(len(enc)-1-n) != l {
		return -1, false // not a string's encoding
	}
	k := enc[1+n:]
	return gt.strFind(k, strHash(k))
}

// lookup returns gt's group for o's group g (the same group columns).
func (gt *groupTable) lookup(o *groupTable, g int) (int32, bool) {
	if gt.str && o.str {
		if int32(g) == o.nullID {
			return gt.nullID, gt.nullID >= 0
		}
		return gt.strFind(o.arena[o.offs[g]:o.offs[g+1]], o.hashes[g])
	}
	return gt.findEnc(o.encode(g))
}

// addFrom adds o's group g, which gt lacks, to gt.
func (gt *groupTable) addFrom(o *groupTable, g int) int32 {
	if gt.nGroups == 0 && o.str {
		gt.str = true
	}
	if gt.str && o.str {
		if int32(g) == o.nullID {
			return gt.strAddNull()
		}
		return gt.strAdd(o.arena[o.offs[g]:o.offs[g+1]], o.hashes[g])
	}
	gt.materialize()
	enc := o.encode(g)
	return gt.addGroup(enc, hashKey(enc), func(c int) any { return o.keyValue(c, g) })
}

// find returns the general layout's group of the encoded key enc, whose
// hash is h.
func (gt *groupTable) find(enc []byte, h uint64) (int32, bool) {
	tag := h >> 32 << 32
	for i := h & gt.mask; ; i = (i + 1) & gt.mask {
		e := gt.slots[i]
		if e == 0 {
			return -1, false
		}
		if e&^0xffffffff == tag {
			g := int(uint32(e)) - 1
			if string(gt.arena[gt.offs[g]:gt.offs[g+1]]) == string(enc) {
				return int32(g), true
			}
		}
	}
}

// insertSlot places group g (hash h) in a free slot.
func (gt *groupTable) insertSlot(g int, h uint64) {
	i := h & gt.mask
	for gt.slots[i] != 0 {
		i = (i + 1) & gt.mask
	}
	gt.slots[i] = h>>32<<32 | uint64(g+1)
}

// grow doubles the slots once half of them are used.
func (gt *groupTable) grow() {
	if 2*(gt.nGroups+1) <= len(gt.slots) {
		return
	}
	gt.bytes += int64(len(gt.slots)) * 8
	gt.slots = make([]uint64, 2*len(gt.slots))
	gt.mask = uint64(len(gt.slots) - 1)
	for g := 0; g < gt.nGroups; g++ {
		gt.insertSlot(g, gt.hashes[g])
	}
}

// assign sets ids to the group of each row of the evaluated group
// columns. When frozen, a row whose group is new gets id -1 and is
// reported to miss instead of starting a group.
func (gt *groupTable) assign(cols []arrow.Array, ids []int32, miss func(r int, enc []byte), frozen bool) {
	if len(cols) == 1 && cols[0].DataType().ID() == arrow.DICTIONARY {
		if dict, idx, ok := stringDictionary(cols[0]); ok && (gt.str || gt.nGroups == 0) {
			switch {
			case isIdentity(idx, dict):
				// The dictionary is the batch's strings (and NULLs) in
				// row order.
				gt.str = true
				gt.assignStrings(dict, ids, miss, frozen)
				return
			case !frozen && dict.Len() < idx.Len():
				gt.str = true
				if gt.assignDict(cols[0], dict, idx, ids) {
					return
				}
			}
			// A dictionary as large as the batch (user ids: most rows of
			// a chunk distinct) saves nothing by entry; its rows group
			// as strings, whose batched probe is faster than one lookup
			// per entry.
		}
	}
	if hasDictionary(cols) {
		// The general path reads plain values.
		plain := slices.Clone(cols)
		for _, c := range plain {
			c.Retain()
		}
		decodeDictionaries(memory.DefaultAllocator, plain)
		defer ReleaseArrays(plain)
		cols = plain
	}
	if len(cols) == 1 {
		if s, ok := cols[0].(*array.String); ok && (gt.str || gt.nGroups == 0) {
			gt.str = true
			gt.assignStrings(s, ids, miss, frozen)
			return
		}
	}
	gt.materialize()
	for r := range ids {
		gt.buf = gt.buf[:0]
		for _, c := range cols {
			gt.buf, _ = appendKey(gt.buf, c, r)
		}
		h := hashKey(gt.buf)
		id, ok := gt.find(gt.buf, h)
		if !ok {
			if frozen {
				ids[r] = -1
				miss(r, gt.buf)
				continue
			}
			id = gt.addGroup(gt.buf, h, func(c int) any { return ValueAt(cols[c], r) })
		}
		ids[r] = id
	}
}

// keyValue is group g's value of key column c.
func (gt *groupTable) keyValue(c, g int) any {
	if gt.str {
		if int32(g) == gt.nullID {
			return nil
		}
		return string(gt.arena[gt.offs[g]:gt.offs[g+1]])
	}
	return gt.keys[c][g]
}

// materialize moves a string layout table to the general layout,
// keeping the group ids.
func (gt *groupTable) materialize() {
	if !gt.str {
		return
	}
	old := *gt
	*gt = *newGroupTable(len(old.keys))
	gt.bytes = old.bytes - int64(old.nGroups)*strGroupBytes - int64(len(old.arena))
	for g := range old.nGroups {
		enc := old.encode(g)
		gt.addGroup(enc, hashKey(enc), func(int) any { return old.keyValue(0, g) })
	}
}

// addGroup appends a general group of encoded key enc (hash h) whose
// key column c holds key(c).
func (gt *groupTable) addGroup(enc []byte, h uint64, key func(c int) any) int32 {
	gt.grow()
	gt.bytes += int64(len(enc)) + groupSlotBytes
	for c := range gt.keys {
		v := key(c)
		gt.keys[c] = append(gt.keys[c], v)
		gt.bytes += 16 + valueBytes(v)
	}
	id := int32(gt.nGroups)
	gt.arena = append(gt.arena, enc...)
	gt.offs = append(gt.offs, int32(len(gt.arena)))
	gt.hashes = append(gt.hashes, h)
	gt.insertSlot(gt.nGroups, h)
	gt.nGroups++
	return id
}
