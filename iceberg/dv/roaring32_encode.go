package dv

import "encoding/binary"

// container is one 16-bit chunk of a 32-bit bitmap being encoded.
type container struct {
	key    uint16
	values []uint16 // sorted, unique
	runs   int
}

func (c *container) kind() (run, bitmap bool) {
	arrayOrBitmap := 2 * len(c.values)
	if len(c.values) > arrayMaxCardinal {
		arrayOrBitmap = bitmapBytes
	}
	if 2+4*c.runs < arrayOrBitmap {
		return true, false
	}
	return false, len(c.values) > arrayMaxCardinal
}

// appendRoaring32 appends the portable serialization of the 32-bit bitmap
// holding lows (sorted, unique), picking for each container the smallest
// of array, bitmap and run encodings as Roaring's runOptimize does.
func appendRoaring32(b []byte, lows []uint32) []byte {
	var cs []container
	for i := 0; i < len(lows); {
		key := uint16(lows[i] >> 16)
		c := container{key: key}
		for ; i < len(lows) && uint16(lows[i]>>16) == key; i++ {
			v := uint16(lows[i])
			if n := len(c.values); n == 0 || c.values[n-1]+1 != v {
				c.runs++
			}
			c.values = append(c.values, v)
		}
		cs = append(cs, c)
	}
	anyRun := false
	for i := range cs {
		if run, _ := cs[i].kind(); run {
			anyRun = true
		}
	}
	n := len(cs)
	if anyRun {
		b = binary.LittleEndian.AppendUint32(b, cookieRuns|uint32(n-1)<<16)
		flags := make([]byte, (n+7)/8)
		for i := range cs {
			if run, _ := cs[i].kind(); run {
				flags[i/8] |= 1 << (i % 8)
			}
		}
		b = append(b, flags...)
	} else {
		b = binary.LittleEndian.AppendUint32(b, cookieNoRuns)
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
	}
	for _, c := range cs {
		b = binary.LittleEndian.AppendUint16(b, c.key)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(c.values)-1))
	}
	if !anyRun || n >= noOffsetThreshold {
		// Offsets are relative to the start of this 32-bit bitmap.
		headerLen := 4 + 4 + 4*n + 4*n
		if anyRun {
			headerLen = 4 + (n+7)/8 + 4*n + 4*n
		}
		off := headerLen
		for i := range cs {
			b = binary.LittleEndian.AppendUint32(b, uint32(off))
			off += cs[i].encodedLen()
		}
	}
	for i := range cs {
		b = cs[i].append(b)
	}
	return b
}

func (c *container) encodedLen() int {
	switch run, bitmap := c.kind(); {
	case run:
		return 2 + 4*c.runs
	case bitmap:
		return bitmapBytes
	default:
		return 2 * len(c.values)
	}
}

func (c *container) append(b []byte) []byte {
	switch run, bitmap := c.kind(); {
	case run:
		b = binary.LittleEndian.AppendUint16(b, uint16(c.runs))
		for i := 0; i < len(c.values); {
			j := i
			for j+1 < len(c.values) && c.values[j+1] == c.values[j]+1 {
				j++
			}
			b = binary.LittleEndian.AppendUint16(b, c.values[i])
			b = binary.LittleEndian.AppendUint16(b, uint16(j-i))
			i = j + 1
		}
	case bitmap:
		var words [bitmapBytes / 8]uint64
		for _, v := range c.values {
			words[v/64] |= 1 << (v % 64)
		}
		for _, w := range words {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	default:
		for _, v := range c.values {
			b = binary.LittleEndian.AppendUint16(b, v)
		}
	}
	return b
}
