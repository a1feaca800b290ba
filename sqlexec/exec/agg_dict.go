package exec

import (
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A scan may hand the aggregation its string group key as
// dictionary<int32, string> arrays (the Parquet dictionary and the
// indexes of a column chunk). The string group table then maps each
// dictionary entry a batch uses to its group once per dictionary, and
// rows take their group by index: no string is compared or hashed per
// row, nor materialised by the reader.

// dictBatches counts the batches grouped by dictionary index.
var dictBatches atomic.Int64

// DictionaryGroupBatches reports how many batches group tables in this
// process have grouped by dictionary index (a diagnostic for tests).
func DictionaryGroupBatches() int64 { return dictBatches.Load() }

// dictGroups remembers the groups of one dictionary's entries.
type dictGroups struct {
	// key is the dictionary's data, shared by the batches of a column
	// chunk (each batch's array of it is a new object); held, so that no
	// other dictionary can take its address.
	key  arrow.ArrayData
	ids  []int32 // per entry, its group or unresolved
	pend []int32 // scratch: entries first seen in a batch
	// resolved counts the entries of ids with a group; once every entry
	// has one, a batch without NULLs is mapped in one pass.
	resolved int
}

// stringDictionary returns a's dictionary and indexes when a is a
// dictionary array of strings with int32 indexes.
func stringDictionary(a arrow.Array) (*array.String, *array.Int32, bool) {
	d, ok := a.(*array.Dictionary)
	if !ok {
		return nil, nil, false
	}
	dict, ok1 := d.Dictionary().(*array.String)
	idx, ok2 := d.Indices().(*array.Int32)
	return dict, idx, ok1 && ok2
}

// assignDict assigns the rows of the dictionary array d (of dictionary
// dict and indexes idx) to groups, adding the missing ones (the table
// is not frozen); false, with nothing assigned, when an index lies
// outside the dictionary.
func (gt *groupTable) assignDict(d arrow.Array, dict *array.String, idx *array.Int32, ids []int32) bool {
	dictBatches.Add(1)
	dg := &gt.dict
	if key := dict.Data(); dg.key != key {
		*dg = dictGroups{key: key, ids: make([]int32, dict.Len()), pend: dg.pend[:0]}
		for i := range dg.ids {
			dg.ids[i] = unresolved
		}
	}
	m := dg.ids
	xs := idx.Int32Values()
	nulls := d.NullN() > 0
	if !nulls && dg.resolved == len(m) {
		for r, x := range xs {
			if uint32(x) >= uint32(len(m)) {
				return false
			}
			ids[r] = m[x]
		}
		return true
	}
	// Entries (and NULL, as -1) new to the table in order of first
	// appearance, which group ids follow as in the general path.
	pend := dg.pend[:0]
	sawNull := gt.nullID >= 0
	for r, x := range xs {
		if nulls && d.IsNull(r) {
			if !sawNull {
				sawNull = true
				pend = append(pend, -1)
			}
			continue
		}
		if uint32(x) >= uint32(len(m)) {
			for _, p := range pend {
				if p >= 0 {
					m[p] = unresolved
				}
			}
			return false
		}
		if m[x] == unresolved {
			m[x] = nullRow // seen: resolved below
			pend = append(pend, x)
		}
	}
	dg.pend = pend
	for _, x := range pend {
		if x < 0 || dict.IsNull(int(x)) {
			if gt.nullID < 0 {
				gt.strAddNull()
			}
			if x >= 0 {
				m[x] = gt.nullID
				dg.resolved++
			}
			continue
		}
		v := dict.Value(int(x))
		k := unsafe.Slice(unsafe.StringData(v), len(v))
		h := strHash(k)
		g, ok := gt.strFind(k, h)
		if !ok {
			g = gt.strAdd(k, h)
		}
		m[x] = g
		dg.resolved++
	}
	if !nulls {
		for r, x := range xs {
			ids[r] = m[x]
		}
		return true
	}
	for r, x := range xs {
		if d.IsNull(r) {
			ids[r] = gt.nullID
			continue
		}
		ids[r] = m[x]
	}
	return true
}

// isIdentity reports whether idx names entries 0..len-1 in order: the
// form of a batch that was not dictionary-encoded
// (parquetfile.IdentityDictionary), NULL rows included (their index is
// their row, and the entry is NULL too).
func isIdentity(idx *array.Int32, dict *array.String) bool {
	xs := idx.Int32Values()
	if len(xs) != dict.Len() {
		return false
	}
	nulls := idx.NullN() > 0
	for r, x := range xs {
		if nulls && idx.IsNull(r) {
			if dict.IsValid(r) {
				return false
			}
		} else if int(x) != r {
			return false
		}
	}
	return true
}

// decodeDictionary returns a string dictionary array's values as a
// string array (other arrays retained as they are).
func decodeDictionary(mem memory.Allocator, a arrow.Array) arrow.Array {
	dict, idx, ok := stringDictionary(a)
	if !ok {
		a.Retain()
		return a
	}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(a.Len())
	for r := range a.Len() {
		x := int(idx.Value(r))
		if a.IsNull(r) || x < 0 || x >= dict.Len() || dict.IsNull(x) {
			b.AppendNull()
			continue
		}
		b.Append(dict.Value(x))
	}
	return b.NewArray()
}

// decodeDictionaries replaces the dictionary arrays of cols by their
// values, releasing them.
func decodeDictionaries(mem memory.Allocator, cols []arrow.Array) {
	for i, c := range cols {
		if c != nil && c.DataType().ID() == arrow.DICTIONARY {
			cols[i] = decodeDictionary(mem, c)
			c.Release()
		}
	}
}

func hasDictionary(cols []arrow.Array) bool {
	for _, c := range cols {
		if c.DataType().ID() == arrow.DICTIONARY {
			return true
		}
	}
	return false
}

// DictionaryString is the dictionary<int32, string> type of the string
// columns a scan or a join build hands over as dictionaries.
var DictionaryString arrow.DataType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// dictionaryEncode returns s as a dictionary array of its distinct
// values, in order of first appearance.
func dictionaryEncode(mem memory.Allocator, s *array.String) arrow.Array {
	pos := map[string]int32{}
	vb := array.NewStringBuilder(mem)
	defer vb.Release()
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.Reserve(s.Len())
	for r := range s.Len() {
		if s.IsNull(r) {
			ib.UnsafeAppendBoolToBitmap(false)
			continue
		}
		v := s.Value(r)
		x, ok := pos[v]
		if !ok {
			x = int32(len(pos))
			pos[v] = x
			vb.Append(v)
		}
		ib.UnsafeAppend(x)
	}
	vals, idx := vb.NewArray(), ib.NewArray()
	defer vals.Release()
	defer idx.Release()
	out := array.NewDictionaryArray(DictionaryString, idx, vals)
	out.Dictionary() // built now: the array is shared by parallel probes
	return out
}
