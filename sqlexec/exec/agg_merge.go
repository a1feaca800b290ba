package exec

import (
	"errors"
)

// mergeable accumulators fold another worker's partial state in;
// mapping[g] is the group in the receiver for the other's group g, or
// -1 to leave group g out.
type mergeable interface {
	merge(other accumulator, mapping []int32) error
}

// errNotMergeable guards against parallelising DISTINCT aggregates, whose
// partial states cannot be combined.
var errNotMergeable = errors.New("exec: DISTINCT aggregates cannot be merged")

func (a *countAcc) merge(other accumulator, mapping []int32) error {
	o := other.(*countAcc)
	for g, to := range mapping {
		if to >= 0 {
			a.n[to] += o.n[g]
		}
	}
	return nil
}

func (a *sumIntAcc) merge(other accumulator, mapping []int32) error {
	o := other.(*sumIntAcc)
	for g, to := range mapping {
		if !o.ok[g] || to < 0 {
			continue
		}
		s, v := a.sum[to], o.sum[g]
		r := s + v
		if (r > s) != (v > 0) {
			return ErrOverflow
		}
		a.sum[to], a.ok[to] = r, true
	}
	return nil
}

func (a *sumFloatAcc) merge(other accumulator, mapping []int32) error {
	o := other.(*sumFloatAcc)
	for g, to := range mapping {
		if o.ok[g] && to >= 0 {
			a.sum[to] += o.sum[g]
			a.ok[to] = true
		}
	}
	return nil
}

func (a *sumDecimalAcc) merge(other accumulator, mapping []int32) error {
	o := other.(*sumDecimalAcc)
	for g, to := range mapping {
		if o.ok[g] && to >= 0 {
			a.sum[to] = a.sum[to].Add(o.sum[g])
			a.ok[to] = true
		}
	}
	return nil
}

func (a *avgAcc) merge(other accumulator, mapping []int32) error {
	o := other.(*avgAcc)
	for g, to := range mapping {
		if to >= 0 {
			a.sum[to] += o.sum[g]
			a.n[to] += o.n[g]
		}
	}
	return nil
}

func (a *avgDecimalAcc) merge(other accumulator, mapping []int32) error {
	o := other.(*avgDecimalAcc)
	if a.scale == 0 {
		a.scale = o.scale
	}
	for g, to := range mapping {
		if to >= 0 {
			a.sum[to] = a.sum[to].Add(o.sum[g])
			a.n[to] += o.n[g]
		}
	}
	return nil
}

func (a *minMaxAcc) merge(other accumulator, mapping []int32) error {
	o := other.(*minMaxAcc)
	for g, to := range mapping {
		if v := o.v[g]; v != nil && to >= 0 {
			a.put(to, v)
		}
	}
	return nil
}

func (a *distinctAcc) merge(accumulator, []int32) error { return errNotMergeable }
