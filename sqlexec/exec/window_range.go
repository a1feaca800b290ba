package exec

import (
	"cmp"
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// RangeOffset is a RANGE frame bound's distance from the current row's
// ORDER BY value, in that value's units: Int for integer keys, Float for
// floating-point keys, Dec (at the key's scale) for decimals, Months and
// Micros for timestamps, Months and Micros for dates too (a date counts
// as its midnight, so only whole days of Micros matter).
type RangeOffset struct {
	Int    int64
	Float  float64
	Dec    decimal128.Num
	Months int64
	Micros int64
	// Text is the offset as written, for EXPLAIN.
	Text string
}

func (o RangeOffset) negative() bool {
	return o.Int < 0 || o.Float < 0 || o.Float != o.Float || o.Dec.Sign() < 0 || o.Months < 0 || o.Micros < 0
}

// hasOffset reports whether b is n PRECEDING or n FOLLOWING.
func (b FrameBound) hasOffset() bool { return b.Kind == BoundPreceding || b.Kind == BoundFollowing }

// rangeOffsets reports whether f is a RANGE frame with an offset bound,
// whose extent depends on the ORDER BY values.
func (f WindowFrame) rangeOffsets() bool {
	return !f.Rows && (f.Start.hasOffset() || f.End.hasOffset())
}

// MicrosPerDay is the length of a day in microseconds.
const MicrosPerDay = int64(24 * time.Hour / time.Microsecond)

// rangeFramer computes the frames of RANGE frames with offsets over one
// sorted batch; key is the single ORDER BY column.
type rangeFramer struct {
	key  arrow.Array
	desc bool
	wb   *winBounds
}

// frames returns every row's frame [lo, hi) under f.
func (r *rangeFramer) frames(f WindowFrame) (lo, hi []int32, err error) {
	n := r.key.Len()
	lo, hi = make([]int32, n), make([]int32, n)
	startOf := func(i int) int { return int(r.wb.peerStart[i]) }
	endOf := func(i int) int { return int(r.wb.peerEnd[i]) }
	// The ends without an offset (and every end of a NULL key, whose
	// offset ends reach exactly the NULL peers) come from the bounds.
	for i := 0; i < n; i++ {
		switch {
		case f.Start.Kind == BoundUnboundedPreceding:
			lo[i] = r.wb.partStart[i]
		case f.Start.Kind == BoundCurrentRow || r.key.IsNull(i):
			lo[i] = int32(startOf(i))
		}
		switch {
		case f.End.Kind == BoundUnboundedFollowing:
			hi[i] = r.wb.partEnd[i]
		case f.End.Kind == BoundCurrentRow || r.key.IsNull(i):
			hi[i] = int32(endOf(i))
		}
	}
	scan, err := r.scanner()
	if err != nil {
		return nil, nil, err
	}
	for ps := 0; ps < n; ps = int(r.wb.partEnd[ps]) {
		ns, ne := r.nonNull(ps, int(r.wb.partEnd[ps]))
		if f.Start.hasOffset() {
			scan(f.Start, ns, ne, false, lo)
		}
		if f.End.hasOffset() {
			scan(f.End, ns, ne, true, hi)
		}
	}
	return lo, hi, nil
}

// nonNull returns the rows of partition [ps, pe) with a non-NULL key:
// the sort puts the NULLs in one run at either end.
func (r *rangeFramer) nonNull(ps, pe int) (ns, ne int) {
	ns, ne = ps, pe
	for ns < ne && r.key.IsNull(ns) {
		ns = int(r.wb.peerEnd[ns])
	}
	for ne > ns && r.key.IsNull(ne-1) {
		ne = int(r.wb.peerStart[ne-1])
	}
	return ns, ne
}

// scanFunc writes the ends of one offset bound for rows [ns, ne) into out:
// for a start the first row not before the target, for an end the first
// row after it.
type scanFunc func(b FrameBound, ns, ne int, end bool, out []int32)

func (r *rangeFramer) scanner() (scanFunc, error) {
	switch a := r.key.(type) {
	case *array.Int8:
		return intScanner(r.desc, widen(a.Int8Values())), nil
	case *array.Int16:
		return intScanner(r.desc, widen(a.Int16Values())), nil
	case *array.Int32:
		return intScanner(r.desc, widen(a.Int32Values())), nil
	case *array.Int64:
		return intScanner(r.desc, a.Int64Values()), nil
	case *array.Float32:
		v := make([]float64, a.Len())
		for i, x := range a.Float32Values() {
			v[i] = float64(x)
		}
		return floatScanner(r.desc, v), nil
	case *array.Float64:
		return floatScanner(r.desc, a.Float64Values()), nil
	case *array.Decimal128:
		return decimalScanner(r.desc, a.Values()), nil
	case *array.Date32:
		v := make([]int64, a.Len())
		for i, d := range a.Date32Values() {
			v[i] = int64(d)
		}
		return temporalScanner(r.desc, v, true), nil
	case *array.Timestamp:
		if a.DataType().(*arrow.TimestampType).Unit != arrow.Microsecond {
			break
		}
		v := make([]int64, a.Len())
		for i, t := range a.TimestampValues() {
			v[i] = int64(t)
		}
		return temporalScanner(r.desc, v, false), nil
	}
	return nil, &TypeError{Op: "RANGE frame with an offset over ORDER BY", Type: r.key.DataType().String()}
}

func widen[T int8 | int16 | int32](v []T) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// target is a bound's ORDER BY value for one row; sat is -1 or +1 when
// the value lies below or above every value of the key's type.
type target[T any] struct {
	v   T
	sat int8
}

// scanRange runs the two pointers of one bound: the target moves forward
// with the current row in the sort direction, so the frame end does too.
func scanRange[T any](keys []T, compare func(a, b T) int, desc bool, shift func(k T, sub bool) target[T]) scanFunc {
	return func(b FrameBound, ns, ne int, end bool, out []int32) {
		// PRECEDING lowers the value in ascending order, raises it in
		// descending order.
		sub := (b.Kind == BoundPreceding) != desc
		p := ns
		for i := ns; i < ne; i++ {
			t := shift(keys[i], sub)
			for p < ne {
				c := -int(t.sat)
				if t.sat == 0 {
					c = compare(keys[p], t.v)
				}
				if desc {
					c = -c
				}
				if c > 0 || (c == 0 && !end) {
					break
				}
				p++
			}
			out[i] = int32(p)
		}
	}
}

func intScanner(desc bool, keys []int64) scanFunc {
	var off int64
	sc := scanRange(keys, cmp.Compare[int64], desc, func(k int64, sub bool) target[int64] {
		return addSat(k, off, sub)
	})
	return func(b FrameBound, ns, ne int, end bool, out []int32) {
		off = b.Range.Int
		sc(b, ns, ne, end, out)
	}
}

// addSat is k+o or k-o for o >= 0, saturated past the int64 range.
func addSat(k, o int64, sub bool) target[int64] {
	if sub {
		if r := k - o; r <= k {
			return target[int64]{v: r}
		}
		return target[int64]{sat: -1}
	}
	if r := k + o; r >= k {
		return target[int64]{v: r}
	}
	return target[int64]{sat: 1}
}

// floatScanner follows the sort's order, where NaN is below every number:
// a NaN key's target is NaN, so it frames exactly the NaN rows.
func floatScanner(desc bool, keys []float64) scanFunc {
	var off float64
	sc := scanRange(keys, cmp.Compare[float64], desc, func(k float64, sub bool) target[float64] {
		r := k + off
		if sub {
			r = k - off
		}
		if r != r && k == k {
			// An infinite key minus an infinite offset: every number
			// lies within an infinite distance.
			if sub {
				return target[float64]{v: math.Inf(-1)}
			}
			return target[float64]{v: math.Inf(1)}
		}
		return target[float64]{v: r}
	})
	return func(b FrameBound, ns, ne int, end bool, out []int32) {
		off = b.Range.Float
		sc(b, ns, ne, end, out)
	}
}

func decimalScanner(desc bool, keys []decimal128.Num) scanFunc {
	var off decimal128.Num
	sc := scanRange(keys, func(a, b decimal128.Num) int { return a.Cmp(b) }, desc, func(k decimal128.Num, sub bool) target[decimal128.Num] {
		if sub {
			if r := k.Sub(off); r.Cmp(k) <= 0 {
				return target[decimal128.Num]{v: r}
			}
			return target[decimal128.Num]{sat: -1}
		}
		if r := k.Add(off); r.Cmp(k) >= 0 {
			return target[decimal128.Num]{v: r}
		}
		return target[decimal128.Num]{sat: 1}
	})
	return func(b FrameBound, ns, ne int, end bool, out []int32) {
		off = b.Range.Dec
		sc(b, ns, ne, end, out)
	}
}

// temporalScanner shifts dates (in days) or timestamps (in microseconds)
// by calendar months, then by a fixed duration. A date counts as its
// midnight, so a duration in a date's bound rounds to whole days.
func temporalScanner(desc bool, keys []int64, days bool) scanFunc {
	var months, fixed int64
	sc := scanRange(keys, cmp.Compare[int64], desc, func(k int64, sub bool) target[int64] {
		if months != 0 {
			m := months
			if sub {
				m = -m
			}
			var ok bool
			if k, ok = shiftMonths(k, m, days); !ok {
				if sub {
					return target[int64]{sat: -1}
				}
				return target[int64]{sat: 1}
			}
		}
		return addSat(k, fixed, sub)
	})
	return func(b FrameBound, ns, ne int, end bool, out []int32) {
		months, fixed = b.Range.Months, b.Range.Micros
		if days {
			// Keep exactly the whole days within the offset: round up
			// where the bound moves toward the frame's inside.
			up := (b.Kind == BoundFollowing) != end
			fixed = fixed / MicrosPerDay
			if up && b.Range.Micros%MicrosPerDay != 0 {
				fixed++
			}
		}
		sc(b, ns, ne, end, out)
	}
}

// maxCalendarMonths bounds month shifts to what time.Time represents.
const maxCalendarMonths = 12 * 1_000_000

// shiftMonths moves a date (days) or timestamp (µs) by m calendar months,
// keeping the day of month where the target month has it and taking the
// month's last day otherwise; ok is false past the representable range.
func shiftMonths(k, m int64, days bool) (int64, bool) {
	if m > maxCalendarMonths || m < -maxCalendarMonths {
		return 0, false
	}
	var t time.Time
	if days {
		t = time.Unix(k*86400, 0).UTC()
	} else {
		t = time.UnixMicro(k).UTC()
	}
	first := time.Date(t.Year(), t.Month(), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC).AddDate(0, int(m), 0)
	last := first.AddDate(0, 1, -1).Day()
	r := first.AddDate(0, 0, min(t.Day(), last)-1)
	if y := r.Year(); y < -290000 || y > 290000 {
		return 0, false
	}
	if days {
		return r.Unix() / 86400, true
	}
	return r.UnixMicro(), true
}

// checkRangeKeys rejects a RANGE frame with offsets over anything but a
// single ORDER BY key.
func checkRangeKeys(f WindowFrame, order []SortKey) error {
	if len(order) != 1 {
		return &FrameError{Frame: f.String(), Reason: fmt.Sprintf("RANGE with an offset needs exactly one ORDER BY key, got %d", len(order))}
	}
	return nil
}

// frameFunc gives row i's frame [lo, hi); lo >= hi is an empty frame.
type frameFunc func(i int) (lo, hi int)

// framesOf returns the frames of f over the sorted batch b.
func (w *Window) framesOf(f WindowFrame, b arrow.RecordBatch, wb *winBounds) (frameFunc, error) {
	if !f.rangeOffsets() {
		return func(i int) (int, int) { return frameOf(f, wb, i) }, nil
	}
	if err := checkRangeKeys(f, w.Order); err != nil {
		return nil, err
	}
	key, err := w.Order[0].Expr.Eval(w.EC, b)
	if err != nil {
		return nil, err
	}
	defer key.Release()
	r := &rangeFramer{key: key, desc: w.Order[0].Desc, wb: wb}
	lo, hi, err := r.frames(f)
	if err != nil {
		return nil, err
	}
	return func(i int) (int, int) { return int(lo[i]), int(hi[i]) }, nil
}
