package exec

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// AggFunc names an aggregate function.
type AggFunc int

// Aggregate functions.
const (
	AggCountStar AggFunc = iota
	AggCount
	AggSum
	AggAvg
	AggMin
	AggMax
)

var aggNames = [...]string{"count(*)", "count", "sum", "avg", "min", "max"}

func (f AggFunc) String() string { return aggNames[f] }

// AggSpec is one aggregate computed per group. Out is its result type:
// count -> INT64; sum of integers -> INT64, of floats -> FLOAT64, of
// decimals -> DECIMAL(38, s); avg -> FLOAT64, or a DECIMAL of scale at
// least the argument's for decimals; min/max -> the argument type.
type AggSpec struct {
	Func     AggFunc
	Arg      Expr // nil for count(*)
	Distinct bool
	Out      arrow.DataType
}

// accumulator holds one aggregate's state for every group.
type accumulator interface {
	grow(groups int)
	update(arg arrow.Array, groups []int32) error
	build(b array.Builder) error
	// memBytes estimates the state's memory, for the spill budget.
	memBytes() int64
}

func newAccumulator(s AggSpec, mem memory.Allocator) (accumulator, error) {
	var acc accumulator
	switch s.Func {
	case AggCountStar, AggCount:
		acc = &countAcc{star: s.Func == AggCountStar}
	case AggSum:
		switch s.Out.ID() {
		case arrow.INT64:
			acc = &sumIntAcc{}
		case arrow.FLOAT64:
			acc = &sumFloatAcc{}
		case arrow.DECIMAL128:
			acc = &sumDecimalAcc{}
		}
	case AggAvg:
		if d, ok := s.Out.(*arrow.Decimal128Type); ok {
			acc = &avgDecimalAcc{out: d}
		} else {
			acc = &avgAcc{}
		}
	case AggMin, AggMax:
		acc = newMinMax(s.Out, s.Func == AggMax)
	}
	if acc == nil {
		return nil, &TypeError{Op: s.Func.String(), Type: s.Out.String()}
	}
	if s.Distinct {
		acc = &distinctAcc{inner: acc, mem: mem}
	}
	return acc, nil
}

type countAcc struct {
	star bool
	n    []int64
}

func (a *countAcc) grow(g int) { a.n = append(a.n, make([]int64, g-len(a.n))...) }
func (a *countAcc) update(arg arrow.Array, groups []int32) error {
	if a.star || arg.NullN() == 0 {
		if len(a.n) <= fewGroups && len(groups) >= 4*fewGroups {
			countFew(a.n, groups)
			return nil
		}
		for _, g := range groups {
			a.n[g]++
		}
		return nil
	}
	if arg.DataType().ID() == arrow.NULL {
		// all null, though an Arrow null array's IsValid says otherwise
		return nil
	}
	for i, g := range groups {
		if arg.IsValid(i) {
			a.n[g]++
		}
	}
	return nil
}

// fewGroups is the most groups countFew counts.
const fewGroups = 64

// countFew adds each group's rows to n (len(n) <= fewGroups) in four
// interleaved tallies: with few groups consecutive rows mostly hit the
// same counter, and one tally would make every increment wait for the
// last one's store.
func countFew(n []int64, groups []int32) {
	var c [4][fewGroups]int64
	i := 0
	for ; i+4 <= len(groups); i += 4 {
		c[0][groups[i]]++
		c[1][groups[i+1]]++
		c[2][groups[i+2]]++
		c[3][groups[i+3]]++
	}
	for ; i < len(groups); i++ {
		c[0][groups[i]]++
	}
	for g := range n {
		n[g] += c[0][g] + c[1][g] + c[2][g] + c[3][g]
	}
}

func (a *countAcc) build(b array.Builder) error {
	b.(*array.Int64Builder).AppendValues(a.n, nil)
	return nil
}

type sumIntAcc struct {
	sum []int64
	ok  []bool
}

func (a *sumIntAcc) grow(g int) {
	a.sum = append(a.sum, make([]int64, g-len(a.sum))...)
	a.ok = append(a.ok, make([]bool, g-len(a.ok))...)
}
func (a *sumIntAcc) update(arg arrow.Array, groups []int32) error {
	var vals []int64
	switch x := arg.(type) {
	case *array.Int64:
		vals = x.Int64Values()
	case *array.Int32:
		vals = make([]int64, x.Len())
		for i, v := range x.Int32Values() {
			vals[i] = int64(v)
		}
	default:
		return &TypeError{Op: "sum", Type: arg.DataType().String()}
	}
	nulls := arg.NullN() > 0
	for i, g := range groups {
		if nulls && arg.IsNull(i) {
			continue
		}
		s, v := a.sum[g], vals[i]
		r := s + v
		if (r > s) != (v > 0) {
			return ErrOverflow
		}
		a.sum[g] = r
		a.ok[g] = true
	}
	return nil
}
func (a *sumIntAcc) build(b array.Builder) error {
	b.(*array.Int64Builder).AppendValues(a.sum, a.ok)
	return nil
}

type sumFloatAcc struct {
	sum []float64
	ok  []bool
}

func (a *sumFloatAcc) grow(g int) {
	a.sum = append(a.sum, make([]float64, g-len(a.sum))...)
	a.ok = append(a.ok, make([]bool, g-len(a.ok))...)
}
func (a *sumFloatAcc) update(arg arrow.Array, groups []int32) error {
	x, ok := arg.(*array.Float64)
	if !ok {
		return &TypeError{Op: "sum", Type: arg.DataType().String()}
	}
	vals := x.Float64Values()
	if x.NullN() == 0 {
		sum, ok := a.sum, a.ok
		if len(sum) <= 4 && len(groups) >= 64 {
			sumFew(sum, ok, vals, groups)
			return nil
		}
		for i, g := range groups {
			sum[g] += vals[i]
			ok[g] = true
		}
		return nil
	}
	for i, g := range groups {
		if x.IsNull(i) {
			continue
		}
		a.sum[g] += vals[i]
		a.ok[g] = true
	}
	return nil
}

// fewMasks[g][k] is all ones where k == g; fewWeights[g][k] is 1 there
// and 0 elsewhere.
var (
	fewMasks   = [4][4]uint64{{^uint64(0)}, {1: ^uint64(0)}, {2: ^uint64(0)}, {3: ^uint64(0)}}
	fewWeights = [4][4]float64{{1}, {1: 1}, {2: 1}, {3: 1}}
)

// sumFew adds vals to the sums of their groups (len(sum) <= 4) in four
// register accumulators. Each row adds its value to its group's and a
// zero to the others'. Every group still adds its values in row order,
// and x + ±0 is x for every sum a group can hold (sums start at +0 and
// so never become -0), so the result is bit for bit that of one add per
// row; but the adds no longer wait on the store of the previous row's,
// which with few groups is mostly the same memory word.
//
// The zero is the value times a 0 weight when every value is finite
// (all in float registers), else the value's bits masked to zero (an
// infinity or NaN times 0 is NaN).
func sumFew(sum []float64, ok []bool, vals []float64, groups []int32) {
	var s [4]float64
	copy(s[:], sum)
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	var seen uint
	finite := true
	for _, v := range vals[:len(groups)] {
		if v-v != 0 { // NaN for an infinity or NaN
			finite = false
			break
		}
	}
	if finite {
		for i, g := range groups {
			v, w := vals[i], &fewWeights[g&3]
			s0 += v * w[0]
			s1 += v * w[1]
			s2 += v * w[2]
			s3 += v * w[3]
			seen |= 1 << (g & 3)
		}
	} else {
		for i, g := range groups {
			b, m := math.Float64bits(vals[i]), &fewMasks[g&3]
			s0 += math.Float64frombits(b & m[0])
			s1 += math.Float64frombits(b & m[1])
			s2 += math.Float64frombits(b & m[2])
			s3 += math.Float64frombits(b & m[3])
			seen |= 1 << (g & 3)
		}
	}
	s = [4]float64{s0, s1, s2, s3}
	copy(sum, s[:])
	for g := range ok {
		if seen&(1<<g) != 0 {
			ok[g] = true
		}
	}
}

func (a *sumFloatAcc) build(b array.Builder) error {
	b.(*array.Float64Builder).AppendValues(a.sum, a.ok)
	return nil
}

type sumDecimalAcc struct {
	sum []decimal128.Num
	ok  []bool
}

func (a *sumDecimalAcc) grow(g int) {
	a.sum = append(a.sum, make([]decimal128.Num, g-len(a.sum))...)
	a.ok = append(a.ok, make([]bool, g-len(a.ok))...)
}
func (a *sumDecimalAcc) update(arg arrow.Array, groups []int32) error {
	x, ok := arg.(*array.Decimal128)
	if !ok {
		return &TypeError{Op: "sum", Type: arg.DataType().String()}
	}
	for i, g := range groups {
		if arg.IsNull(i) {
			continue
		}
		a.sum[g] = a.sum[g].Add(x.Value(i))
		a.ok[g] = true
	}
	return nil
}
func (a *sumDecimalAcc) build(b array.Builder) error {
	b.(*array.Decimal128Builder).AppendValues(a.sum, a.ok)
	return nil
}

type avgAcc struct {
	sum []float64
	n   []int64
}

func (a *avgAcc) grow(g int) {
	a.sum = append(a.sum, make([]float64, g-len(a.sum))...)
	a.n = append(a.n, make([]int64, g-len(a.n))...)
}
func (a *avgAcc) update(arg arrow.Array, groups []int32) error {
	switch x := arg.(type) {
	case *array.Int64:
		avgAdd(a, x, x.Int64Values(), groups)
		return nil
	case *array.Int32:
		avgAdd(a, x, x.Int32Values(), groups)
		return nil
	case *array.Float64:
		avgAdd(a, x, x.Float64Values(), groups)
		return nil
	case *array.Float32:
		avgAdd(a, x, x.Float32Values(), groups)
		return nil
	}
	for i, g := range groups {
		v := ValueAt(arg, i)
		if v == nil {
			continue
		}
		f, err := CastValue(v, arg.DataType(), arrow.PrimitiveTypes.Float64)
		if err != nil {
			return err
		}
		a.sum[g] += f.(float64)
		a.n[g]++
	}
	return nil
}
func (a *avgAcc) build(b array.Builder) error {
	fb := b.(*array.Float64Builder)
	for g, s := range a.sum {
		if a.n[g] == 0 {
			fb.AppendNull()
		} else {
			fb.Append(s / float64(a.n[g]))
		}
	}
	return nil
}

type minMaxAcc struct {
	max   bool
	v     []any
	extra int64 // bytes the held values reference beyond their boxes
}

func (a *minMaxAcc) grow(g int) { a.v = append(a.v, make([]any, g-len(a.v))...) }
func (a *minMaxAcc) update(arg arrow.Array, groups []int32) error {
	for i, g := range groups {
		v := ValueAt(arg, i)
		if v == nil {
			continue
		}
		a.put(g, v)
	}
	return nil
}

func (a *minMaxAcc) put(g int32, v any) {
	cur := a.v[g]
	if cur != nil {
		c := CompareValues(v, cur)
		if (a.max && c <= 0) || (!a.max && c >= 0) {
			return
		}
	}
	a.v[g] = v
	a.extra += valueBytes(v) - valueBytes(cur)
}

func (a *minMaxAcc) build(b array.Builder) error {
	for _, v := range a.v {
		if err := AppendValue(b, v); err != nil {
			return err
		}
	}
	return nil
}

// distinctAcc feeds its inner accumulator each (group, value) pair once.
type distinctAcc struct {
	inner     accumulator
	mem       memory.Allocator
	seen      map[string]struct{}
	seenBytes int64
	buf       []byte
}

func (a *distinctAcc) grow(g int) { a.inner.grow(g) }
func (a *distinctAcc) update(arg arrow.Array, groups []int32) error {
	if a.seen == nil {
		a.seen = map[string]struct{}{}
	}
	var keep []int
	var keepGroups []int32
	for i, g := range groups {
		if arg.IsNull(i) {
			continue
		}
		a.buf = fmt.Appendf(a.buf[:0], "%d:", g)
		a.buf, _ = appendKey(a.buf, arg, i)
		if _, dup := a.seen[string(a.buf)]; dup {
			continue
		}
		a.seen[string(a.buf)] = struct{}{}
		a.seenBytes += int64(len(a.buf)) + mapEntryBytes
		keep = append(keep, i)
		keepGroups = append(keepGroups, g)
	}
	if len(keep) == 0 {
		return nil
	}
	b := array.NewBuilder(a.mem, arg.DataType())
	defer b.Release()
	for _, i := range keep {
		if err := AppendValue(b, ValueAt(arg, i)); err != nil {
			return err
		}
	}
	sub := b.NewArray()
	defer sub.Release()
	return a.inner.update(sub, keepGroups)
}
func (a *distinctAcc) build(b array.Builder) error { return a.inner.build(b) }

// avgDecimalAcc sums decimals exactly and divides once per group.
type avgDecimalAcc struct {
	out   *arrow.Decimal128Type
	scale int32
	sum   []decimal128.Num
	n     []int64
}

func (a *avgDecimalAcc) grow(g int) {
	a.sum = append(a.sum, make([]decimal128.Num, g-len(a.sum))...)
	a.n = append(a.n, make([]int64, g-len(a.n))...)
}
func (a *avgDecimalAcc) update(arg arrow.Array, groups []int32) error {
	x, ok := arg.(*array.Decimal128)
	if !ok {
		return &TypeError{Op: "avg", Type: arg.DataType().String()}
	}
	a.scale = x.DataType().(*arrow.Decimal128Type).Scale
	for i, g := range groups {
		if x.IsNull(i) {
			continue
		}
		a.sum[g] = a.sum[g].Add(x.Value(i))
		a.n[g]++
	}
	return nil
}
func (a *avgDecimalAcc) build(b array.Builder) error {
	db := b.(*array.Decimal128Builder)
	for g, s := range a.sum {
		if a.n[g] == 0 {
			db.AppendNull()
			continue
		}
		v, err := DecimalDiv(s, a.scale, a.n[g], a.out)
		if err != nil {
			return err
		}
		db.Append(v)
	}
	return nil
}

func avgAdd[T int32 | int64 | float32 | float64](a *avgAcc, arr arrow.Array, vals []T, groups []int32) {
	nulls := arr.NullN() > 0
	for i, g := range groups {
		if nulls && arr.IsNull(i) {
			continue
		}
		a.sum[g] += float64(vals[i])
		a.n[g]++
	}
}
