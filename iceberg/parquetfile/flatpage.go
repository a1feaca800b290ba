package parquetfile

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"
)

// directKind reports whether pages of kind k feed arrays of type dt (with
// time unit multiplier unit) value for value, with no conversion: such
// pages are bound in place (bindPage) instead of copied.
func directKind(dt arrow.DataType, unit int64, k parquet.Kind) bool {
	switch dt.ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		return k == parquet.Int64 && unit == 1
	case arrow.INT32, arrow.DATE32:
		return k == parquet.Int32
	case arrow.FLOAT64:
		return k == parquet.Double
	case arrow.FLOAT32:
		return k == parquet.Float
	case arrow.STRING, arrow.BINARY:
		return k == parquet.ByteArray
	}
	return false
}

// bindPage points c at the decoded page p without copying it: the levels,
// and either the values or the dictionary's values with the page's
// indexes into them (c.idx). c keeps p until releasePage. The page's kind
// must be one directKind accepts.
func (c *chunkData) bindPage(p parquet.Page, maxDef byte) error {
	c.reset(p.Type().Kind(), maxDef, 0, 0)
	entries := int(p.NumValues())
	defined := entries
	if maxDef > 0 {
		d := p.DefinitionLevels()
		if len(d) != entries {
			return corrupt("page has %d definition levels for %d values", len(d), entries)
		}
		defined = 0
		for _, l := range d {
			if l > maxDef {
				return corrupt("definition level %d above maximum %d", l, maxDef)
			}
			if l == maxDef {
				defined++
			}
		}
		c.def = d
	}
	c.n = entries
	c.page = p
	data := p.Data()
	if dict := p.Dictionary(); dict != nil {
		idx := data.Int32()
		if len(idx) != defined {
			return corrupt("page has %d dictionary indexes for %d defined entries", len(idx), defined)
		}
		if err := checkIndexes(idx, dict.Len()); err != nil {
			return err
		}
		c.idx = idx
		data = dict.Page().Data()
		defined = dict.Len()
	}
	var got int
	switch c.kind {
	case parquet.Int32:
		c.i32 = data.Int32()
		got = len(c.i32)
	case parquet.Int64:
		c.i64 = data.Int64()
		got = len(c.i64)
	case parquet.Float:
		c.f32 = data.Float()
		got = len(c.f32)
	case parquet.Double:
		c.f64 = data.Double()
		got = len(c.f64)
	case parquet.ByteArray:
		bin, offs := data.ByteArray()
		if len(offs) == 0 {
			offs = []uint32{0}
		}
		if err := checkOffsets(offs, len(bin)); err != nil {
			return err
		}
		c.bin, c.off = bin, castSlice[uint32, int32](offs)
		got = len(offs) - 1
	default:
		// Parquet's UNKNOWN (NULL) columns have no physical kind and no values
		if defined != 0 {
			return corrupt("unsupported physical type %v", c.kind)
		}
	}
	if got != defined {
		return corrupt("page has %d values for %d defined entries", got, defined)
	}
	return nil
}

// releasePage gives back the page bound by bindPage, if any, and drops
// every slice aliasing it (later appends must not write into its buffers).
func (c *chunkData) releasePage() {
	if c.page != nil {
		parquet.Release(c.page)
		*c = chunkData{}
	}
	if c.bufs != nil {
		c.bufs.releaseBody()
	}
}

// checkIndexes rejects dictionary indexes outside a dictionary of size
// entries.
func checkIndexes(idx []int32, size int) error {
	// Unsigned compare: negative indexes wrap above any size.
	n := uint32(size)
	bad := false
	for _, i := range idx {
		bad = bad || uint32(i) >= n
	}
	if bad {
		for _, i := range idx {
			if uint32(i) >= n {
				return corrupt("dictionary index %d out of range (%d entries)", i, size)
			}
		}
	}
	return nil
}

// checkOffsets rejects byte-array offsets that decrease or pass the data
// (values are sliced as bin[off[i]:off[i+1]]).
func checkOffsets(offs []uint32, size int) error {
	if last := offs[len(offs)-1]; int64(last) > int64(size) || last > 1<<31-1 {
		return corrupt("byte array offset %d out of range", last)
	}
	prev := offs[0]
	bad := false
	for _, o := range offs[1:] {
		bad = bad || o < prev
		prev = o
	}
	if bad {
		return corrupt("byte array offsets decrease")
	}
	return nil
}
