package parquetfile

import "unsafe"

// unpackGroups fills out (a multiple of 8 values long) with the
// bit-packed values of width w (1 to 32) at the start of src, which must
// hold len(out)/8*w bytes plus 8 of slack: each value is one unaligned
// word load at an offset fixed within its group of 8, so there is no
// per-value bounds check or carried bit position. Like the PLAIN views
// of this package (bytesAs), the loads assume a little-endian machine.
func unpackGroups[T int32 | byte](src []byte, w uint, out []T) {
	groups := len(out) / 8
	if groups == 0 {
		return
	}
	_ = src[groups*int(w)+7] // the precondition, checked once
	mask := uint64(1)<<w - 1
	p := unsafe.Pointer(unsafe.SliceData(src))
	o := unsafe.Pointer(unsafe.SliceData(out))
	var zero T
	size := unsafe.Sizeof(zero)
	if w <= 8 {
		// A group is at most 8 bytes: one load yields all its values.
		for g := range groups {
			x := *(*uint64)(p)
			*(*T)(o) = T(x & mask)
			*(*T)(unsafe.Add(o, size)) = T(x >> w & mask)
			*(*T)(unsafe.Add(o, 2*size)) = T(x >> (2 * w) & mask)
			*(*T)(unsafe.Add(o, 3*size)) = T(x >> (3 * w) & mask)
			*(*T)(unsafe.Add(o, 4*size)) = T(x >> (4 * w) & mask)
			*(*T)(unsafe.Add(o, 5*size)) = T(x >> (5 * w) & mask)
			*(*T)(unsafe.Add(o, 6*size)) = T(x >> (6 * w) & mask)
			*(*T)(unsafe.Add(o, 7*size)) = T(x >> (7 * w) & mask)
			if g+1 == groups {
				break // o would point one past out, outside its allocation (checkptr)
			}
			p = unsafe.Add(p, w)
			o = unsafe.Add(o, 8*size)
		}
		return
	}
	// Wider values: value j of a group starts at bit j*w, a byte offset
	// and a shift of at most 7, so a word holds it whole (w <= 57).
	var at [8]uintptr
	var sh [8]uint
	for j := range 8 {
		bit := uint(j) * w
		at[j], sh[j] = uintptr(bit>>3), bit&7
	}
	for g := range groups {
		*(*T)(o) = T(*(*uint64)(p) >> sh[0] & mask)
		*(*T)(unsafe.Add(o, size)) = T(*(*uint64)(unsafe.Add(p, at[1])) >> sh[1] & mask)
		*(*T)(unsafe.Add(o, 2*size)) = T(*(*uint64)(unsafe.Add(p, at[2])) >> sh[2] & mask)
		*(*T)(unsafe.Add(o, 3*size)) = T(*(*uint64)(unsafe.Add(p, at[3])) >> sh[3] & mask)
		*(*T)(unsafe.Add(o, 4*size)) = T(*(*uint64)(unsafe.Add(p, at[4])) >> sh[4] & mask)
		*(*T)(unsafe.Add(o, 5*size)) = T(*(*uint64)(unsafe.Add(p, at[5])) >> sh[5] & mask)
		*(*T)(unsafe.Add(o, 6*size)) = T(*(*uint64)(unsafe.Add(p, at[6])) >> sh[6] & mask)
		*(*T)(unsafe.Add(o, 7*size)) = T(*(*uint64)(unsafe.Add(p, at[7])) >> sh[7] & mask)
		if g+1 == groups {
			break // o would point one past out, outside its allocation (checkptr)
		}
		p = unsafe.Add(p, w)
		o = unsafe.Add(o, 8*size)
	}
}

// maxIndex returns the largest of idx as unsigned (negative values, from
// 32-bit widths, wrap above any dictionary size).
func maxIndex(idx []int32) uint32 {
	var m0, m1 uint32
	i := 0
	for ; i+2 <= len(idx); i += 2 {
		m0 = max(m0, uint32(idx[i]))
		m1 = max(m1, uint32(idx[i+1]))
	}
	if i < len(idx) {
		m0 = max(m0, uint32(idx[i]))
	}
	return max(m0, m1)
}
