package exec

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// The string layout of groupTable: one String key column.
//
// With many groups nearly every lookup misses the cache, so a batch is
// resolved in phases, each a loop whose iterations do not depend on one
// another and so overlap their memory loads: hash every key, then find
// every key's candidate slot, then compare every candidate's bytes. Only
// the rows left over (new keys, NULLs, rare tag collisions) go one at a
// time, in row order, so group ids still follow first appearance.

// strSlot is a slot of the string layout: the tag (hash's high half) and
// group id as in the general slots. It is kept to 8 bytes: with many
// groups the slot is a probe's cache miss, and a table twice the size
// misses more often than the key's offsets and bytes, read only for the
// one candidate whose tag matched.
type strSlot struct {
	meta uint64 // 0: empty; else tag<<32 | (id + 1)
}

// strGroupBytes is a string group's overhead besides its key's bytes:
// its slot (at most half the slots are used), hash and offset.
const strGroupBytes = 2*8 + 8 + 4

// key is group g's key.
func (gt *groupTable) key(g int32) []byte { return gt.arena[gt.offs[g]:gt.offs[g+1]] }

func strHash(k []byte) uint64 { return maphash.Bytes(rowHashSeed, k) }

// unresolved and nullRow mark rows in ids while a batch is probed.
const (
	unresolved = -1
	nullRow    = -2
)

// assignStrings assigns the rows of s (see assign).
func (gt *groupTable) assignStrings(s *array.String, ids []int32, miss func(r int, enc []byte), frozen bool) {
	n := len(ids)
	offsets := s.ValueOffsets()
	var data []byte
	if b := s.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	if gt.nGroups <= smallGroups && s.NullN() == 0 && gt.assignSmall(offsets, data, ids) {
		return
	}
	if cap(gt.hbuf) < n {
		gt.hbuf = make([]uint64, n)
	}
	hashes := gt.hbuf[:n]
	for r := range n {
		hashes[r] = strHash(data[offsets[r]:offsets[r+1]])
	}
	for r := range ids {
		ids[r] = unresolved
	}
	if s.NullN() > 0 {
		bits, off := s.NullBitmapBytes(), s.Data().Offset()
		for r := range ids {
			if !bitutil.BitIsSet(bits, off+r) {
				ids[r] = nullRow
			}
		}
	}
	gt.probe(offsets, data, hashes, ids)
	for r, id := range ids {
		if id >= 0 {
			continue
		}
		if id == nullRow {
			if gt.nullID < 0 {
				if frozen {
					ids[r] = -1
					miss(r, append(gt.buf[:0], 0))
					continue
				}
				gt.strAddNull()
			}
			ids[r] = gt.nullID
			continue
		}
		k := data[offsets[r]:offsets[r+1]]
		g, ok := gt.strFind(k, hashes[r])
		if !ok {
			if frozen {
				ids[r] = -1
				miss(r, append(binary.AppendUvarint(append(gt.buf[:0], 1), uint64(len(k))), k...))
				continue
			}
			g = gt.strAdd(k, hashes[r])
		}
		ids[r] = g
	}
}

// probe sets ids[r] to the group of key r (data[offsets[r]:offsets[r+1]],
// hash hashes[r]) for every unresolved row whose key the table holds; it
// changes nothing else, so workers may probe one table at once.
func (gt *groupTable) probe(offsets []int32, data []byte, hashes []uint64, ids []int32) {
	if len(gt.sslots) == 0 { // no groups, or only the NULL one
		return
	}
	if cap(gt.cbuf) < len(ids) {
		gt.cbuf = make([]uint32, len(ids))
	}
	gt.probeWith(offsets, data, hashes, ids, gt.cbuf[:len(ids)])
}

// probeWith is probe with the caller's scratch (one slot index per row).
func (gt *groupTable) probeWith(offsets []int32, data []byte, hashes []uint64, ids []int32, cand []uint32) {
	slots, mask := gt.sslots, gt.smask
	// phase 1: the first slot of each key's probe sequence whose tag
	// matches (the rest of a sequence is mostly in the same line)
	for r, id := range ids {
		if id != unresolved {
			continue
		}
		h := hashes[r]
		tag := h >> 32 << 32
		for i := h & mask; ; i = (i + 1) & mask {
			e := &slots[i]
			if e.meta == 0 {
				break
			}
			if e.meta&^0xffffffff == tag {
				ids[r] = int32(uint32(e.meta)) - 1
				cand[r] = uint32(i)
				break
			}
		}
	}
	// phase 2: compare the candidates' bytes; a mismatch probes on
	for r, id := range ids {
		if id < 0 {
			continue
		}
		k := data[offsets[r]:offsets[r+1]]
		if string(gt.key(id)) == string(k) {
			continue
		}
		ids[r] = unresolved
		if g, ok := gt.strFindFrom(k, hashes[r], (uint64(cand[r])+1)&mask); ok {
			ids[r] = g
		}
	}
}

// strFind returns the group of key k (hash h).
func (gt *groupTable) strFind(k []byte, h uint64) (int32, bool) {
	if len(gt.sslots) == 0 {
		return -1, false
	}
	return gt.strFindFrom(k, h, h&gt.smask)
}

func (gt *groupTable) strFindFrom(k []byte, h, i uint64) (int32, bool) {
	tag := h >> 32 << 32
	for ; ; i = (i + 1) & gt.smask {
		e := &gt.sslots[i]
		if e.meta == 0 {
			return -1, false
		}
		if e.meta&^0xffffffff == tag {
			if g := int32(uint32(e.meta)) - 1; string(gt.key(g)) == string(k) {
				return g, true
			}
		}
	}
}

// strAdd appends a group of key k (hash h), which the table lacks.
func (gt *groupTable) strAdd(k []byte, h uint64) int32 {
	gt.strReserve(gt.nGroups + 1)
	id := gt.appendGroup(k, h)
	gt.strInsert(id, h)
	return id
}

// strAddNull appends the NULL key's group.
func (gt *groupTable) strAddNull() int32 {
	gt.nullID = gt.appendGroup(nil, 0)
	return gt.nullID
}

func (gt *groupTable) appendGroup(k []byte, h uint64) int32 {
	gt.bytes += int64(len(k)) + strGroupBytes
	id := int32(gt.nGroups)
	gt.arena = append(gt.arena, k...)
	gt.offs = append(gt.offs, int32(len(gt.arena)))
	gt.hashes = append(gt.hashes, h)
	gt.nGroups++
	return id
}

// strInsert places group id (hash h) in a free slot.
func (gt *groupTable) strInsert(id int32, h uint64) {
	i := h & gt.smask
	for gt.sslots[i].meta != 0 {
		i = (i + 1) & gt.smask
	}
	gt.sslots[i] = strSlot{meta: h>>32<<32 | uint64(id+1)}
}

// strReserve makes room for groups groups at most half the slots full.
func (gt *groupTable) strReserve(groups int) {
	if 2*groups <= len(gt.sslots) {
		return
	}
	n := max(16, len(gt.sslots))
	for n < 2*groups {
		n *= 2
	}
	gt.bytes += int64(len(gt.sslots)) * 8
	gt.sslots = make([]strSlot, n)
	gt.smask = uint64(n - 1)
	// The groups' arrays grow with the slots, to the n/2 groups they hold
	// before the next doubling: append alone grows large slices by 1.25x,
	// copying the keys several times over (a sixth of a 500k-group
	// aggregation's time).
	if want := n / 2; cap(gt.hashes) < want {
		gt.hashes = slices.Grow(gt.hashes, want-len(gt.hashes))
		gt.offs = slices.Grow(gt.offs, want+1-len(gt.offs))
		if gt.nGroups > 0 {
			keyBytes := len(gt.arena) / gt.nGroups * want
			gt.arena = slices.Grow(gt.arena, max(0, keyBytes-len(gt.arena)))
		}
	}
	for g := range gt.nGroups {
		if int32(g) != gt.nullID {
			gt.strInsert(int32(g), gt.hashes[g])
		}
	}
}

// appendStrings appends the string layout's keys to b in group order.
func (gt *groupTable) appendStrings(b *array.StringBuilder) {
	b.Reserve(gt.nGroups)
	b.ReserveData(len(gt.arena))
	for g := range gt.nGroups {
		if int32(g) == gt.nullID {
			b.AppendNull()
			continue
		}
		b.BinaryBuilder.Append(gt.arena[gt.offs[g]:gt.offs[g+1]])
	}
}

// smallGroups is the most groups assignSmall compares keys against.
const smallGroups = 8

// assignSmall assigns a batch without NULLs to a table of a few groups
// without hashing: a cheap mix of a key's length and end bytes picks an
// entry of a 64-entry cache of groups, checked with one comparison
// (predictably right with so few groups); a wrong entry is refreshed
// by trying every group. It gives up (false, ids unspecified) at the
// first key the table lacks.
func (gt *groupTable) assignSmall(offsets []int32, data []byte, ids []int32) bool {
	if gt.nullID >= 0 || gt.nGroups == 0 {
		return false
	}
	recent := &gt.recent
	for r := range ids {
		k := data[offsets[r]:offsets[r+1]]
		slot := 0
		if len(k) > 0 {
			slot = (len(k)*7 + int(k[0])*3 + int(k[len(k)-1])) & (len(recent) - 1)
		}
		g := int(recent[slot])
		if string(gt.arena[gt.offs[g]:gt.offs[g+1]]) != string(k) {
			for g = 0; g < gt.nGroups; g++ {
				if string(gt.arena[gt.offs[g]:gt.offs[g+1]]) == string(k) {
					break
				}
			}
			if g == gt.nGroups {
				return false
			}
			recent[slot] = uint8(g)
		}
		ids[r] = int32(g)
	}
	return true
}

// parallelProbeGroups is the fewest keys mergeStrings probes for on
// several goroutines.
const parallelProbeGroups = 1 << 15

// mergeStrings adds o's groups that gt lacks and returns, per group of
// o, its group in gt. Probing only reads gt, so that part is split over
// up to workers goroutines; adding is serial, in o's group order.
func (gt *groupTable) mergeStrings(o *groupTable, workers int) []int32 {
	n := o.nGroups
	ids := make([]int32, n)
	for g := range ids {
		ids[g] = unresolved
	}
	if o.nullID >= 0 {
		ids[o.nullID] = nullRow
	}
	if len(gt.sslots) > 0 {
		workers = max(1, min(workers, n/parallelProbeGroups))
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := n*w/workers, n*(w+1)/workers
			wg.Add(1)
			go func() {
				defer wg.Done()
				gt.probeWith(o.offs[lo:hi+1], o.arena, o.hashes[lo:hi], ids[lo:hi], make([]uint32, hi-lo))
			}()
		}
		wg.Wait()
	}
	added := 0
	for _, id := range ids {
		if id == unresolved || id == nullRow {
			added++
		}
	}
	gt.strReserve(gt.nGroups + added)
	for g, id := range ids {
		switch id {
		case nullRow:
			if gt.nullID < 0 {
				gt.strAddNull()
			}
			ids[g] = gt.nullID
		case unresolved:
			ids[g] = gt.strAdd(o.arena[o.offs[g]:o.offs[g+1]], o.hashes[g])
		}
	}
	return ids
}
