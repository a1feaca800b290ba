package exec

import "unsafe"

// Estimates of what a hash aggregation's table occupies, counted against
// EvalContext.MemoryLimit. They need not be exact, only proportional to
// the real footprint so that spilling starts before memory runs out.

// mapEntryBytes is the overhead of one Go map entry with a string key
// (key header, value, tophash and the load factor's slack).
const mapEntryBytes = 48

// valueBytes is what one boxed Go value form of an Iceberg value holds.
func valueBytes(v any) int64 {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		return 32 + int64(len(x))
	case []byte:
		return 40 + int64(len(x))
	}
	return 32
}

// memBytes estimates the group table and every accumulator.
func (st *aggState) memBytes() int64 {
	n := st.gt.bytes
	for _, a := range st.accs {
		n += a.memBytes()
	}
	return n
}

func (a *countAcc) memBytes() int64    { return 8 * int64(cap(a.n)) }
func (a *sumIntAcc) memBytes() int64   { return 9 * int64(cap(a.sum)) }
func (a *sumFloatAcc) memBytes() int64 { return 9 * int64(cap(a.sum)) }
func (a *sumDecimalAcc) memBytes() int64 {
	return 17 * int64(cap(a.sum))
}
func (a *avgAcc) memBytes() int64        { return 16 * int64(cap(a.sum)) }
func (a *avgDecimalAcc) memBytes() int64 { return 24 * int64(cap(a.sum)) }
func (a *minMaxAcc) memBytes() int64     { return 16*int64(cap(a.v)) + a.extra }
func (a *minMaxTyped[T]) memBytes() int64 {
	var zero T
	return int64(unsafe.Sizeof(zero)+1) * int64(cap(a.v))
}
func (a *distinctAcc) memBytes() int64 { return a.inner.memBytes() + a.seenBytes + int64(cap(a.buf)) }
