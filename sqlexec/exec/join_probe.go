package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// probeCursor is the progress of one probe batch: which row's candidates
// are being paired and which probe rows found a match so far.
type probeCursor struct {
	batch   arrow.RecordBatch
	keys    []arrow.Array
	n       int
	next    int     // next probe row to look up
	row     int32   // the row whose candidates remain
	cand    int32   // its next build row not yet paired (-1: none)
	heads   []int32 // per probe row, its first matching build row (-1: none)
	hit     []bool
	null    []bool
	paired  bool    // every candidate pair has been produced
	tail    []int32 // probe rows still to emit after the pairs
	tailSet bool    // tail has been computed
	li, ri  []int32
	skipHit bool // semi/anti: a row needs only one match
}

func (c *probeCursor) release() {
	if c == nil {
		return
	}
	c.batch.Release()
	ReleaseArrays(c.keys)
}

func (j *HashJoin) newProbe(b arrow.RecordBatch) (*probeCursor, error) {
	keys, err := evalAll(j.EC, b, j.LeftKeys)
	if err != nil {
		b.Release()
		return nil, err
	}
	n := int(b.NumRows())
	c := &probeCursor{batch: b, keys: keys, n: n, hit: make([]bool, n), null: make([]bool, n),
		heads: make([]int32, n), cand: -1, skipHit: j.Type == JoinSemi || j.Type == JoinAnti}
	j.buf = j.jb.table.lookup(keys, j.jb.NullsEqual, c.heads, c.null, j.buf)
	if c.skipHit && j.Residual == nil {
		// an existence test needs no pairs
		for r, h := range c.heads {
			c.hit[r] = h >= 0
		}
		c.paired = true
	}
	return c, nil
}

// nextPairs fills c.li/c.ri with at most max candidate pairs.
func (j *HashJoin) nextPairs(c *probeCursor, max int) {
	c.li, c.ri = c.li[:0], c.ri[:0]
	next := j.jb.table.next
	for len(c.li) < max {
		if c.cand < 0 || (c.skipHit && c.hit[c.row]) {
			if c.next >= c.n {
				c.paired, c.cand = true, -1
				return
			}
			r := c.next
			c.next++
			c.row, c.cand = int32(r), c.heads[r]
			continue
		}
		c.li = append(c.li, c.row)
		c.ri = append(c.ri, c.cand)
		c.cand = next[c.cand]
	}
}

// step produces the next output batch of the current probe batch (nil
// or empty when a chunk had no survivors), and drops the cursor when the
// batch is finished.
func (j *HashJoin) step(ctx context.Context) (arrow.RecordBatch, error) {
	c := j.probe
	if !c.paired {
		j.nextPairs(c, j.batchRows())
		if len(c.li) == 0 {
			return nil, nil
		}
		li, ri := c.li, c.ri
		var combined arrow.RecordBatch
		var err error
		if j.Residual != nil {
			if combined, li, ri, err = j.applyResidual(ctx, c, li, ri); err != nil {
				return nil, err
			}
		}
		for _, r := range li {
			c.hit[r] = true
		}
		if j.matched != nil {
			for _, r := range ri {
				j.matched[r] = true
			}
		}
		if c.skipHit {
			if combined != nil {
				combined.Release()
			}
			return nil, nil
		}
		if combined != nil {
			defer combined.Release()
			if len(li) == len(c.li) {
				return NewBatch(j.EC, j.Out, combined.Columns(), combined.NumRows())
			}
		}
		return j.assemble(ctx, c.batch.Columns(), li, ri)
	}
	if !c.tailSet {
		c.tail, c.tailSet = j.probeTail(c), true
	}
	if len(c.tail) == 0 {
		j.probe = nil
		c.release()
		return nil, nil
	}
	rows := c.tail[:min(len(c.tail), j.batchRows())]
	c.tail = c.tail[len(rows):]
	if j.Type == JoinSemi || j.Type == JoinAnti {
		return TakeBatch(ctx, j.EC, j.Out, c.batch.Columns(), rows)
	}
	ri := make([]int32, len(rows))
	for i := range ri {
		ri[i] = -1
	}
	return j.assemble(ctx, c.batch.Columns(), rows, ri)
}

// probeTail lists the probe rows a finished probe batch outputs besides
// its pairs: the kept rows of semi and anti joins, the unmatched rows of
// left and full joins.
func (j *HashJoin) probeTail(c *probeCursor) []int32 {
	var keep []int32
	switch j.Type {
	case JoinSemi, JoinAnti:
		for r := 0; r < c.n; r++ {
			pass := c.hit[r]
			if j.Type == JoinAnti {
				pass = !c.hit[r]
				if j.NullAware && j.jb.rows > 0 && (j.jb.hasNull || c.null[r]) {
					pass = false
				}
			}
			if pass {
				keep = append(keep, int32(r))
			}
		}
	case JoinLeft, JoinFull:
		for r := 0; r < c.n; r++ {
			if !c.hit[r] {
				keep = append(keep, int32(r))
			}
		}
	}
	return keep
}

func (j *HashJoin) applyResidual(ctx context.Context, c *probeCursor, li, ri []int32) (arrow.RecordBatch, []int32, []int32, error) {
	combined, err := j.pairBatch(ctx, c.batch.Columns(), li, ri)
	if err != nil {
		return nil, nil, nil, err
	}
	mask, err := j.Residual.Eval(j.EC, combined)
	if err != nil {
		combined.Release()
		return nil, nil, nil, err
	}
	defer mask.Release()
	keep := TruthMask(mask)
	var l2, r2 []int32
	for i, k := range keep {
		if k {
			l2 = append(l2, li[i])
			r2 = append(r2, ri[i])
		}
	}
	return combined, l2, r2, nil
}

// pairBatch builds the combined left++right batch for index pairs.
func (j *HashJoin) pairBatch(ctx context.Context, left []arrow.Array, li, ri []int32) (arrow.RecordBatch, error) {
	lb, err := TakeBatch(ctx, j.EC, j.Left.Schema(), left, li)
	if err != nil {
		return nil, err
	}
	defer lb.Release()
	rb, err := TakeBatch(ctx, j.EC, j.jb.Schema(), j.jb.cols, ri)
	if err != nil {
		return nil, err
	}
	defer rb.Release()
	cols := append(append([]arrow.Array{}, lb.Columns()...), rb.Columns()...)
	return NewBatch(j.EC, j.pairs, cols, int64(len(li)))
}

func (j *HashJoin) assemble(ctx context.Context, left []arrow.Array, li, ri []int32) (arrow.RecordBatch, error) {
	if j.Unread != nil && len(j.Unread) == len(left)+len(j.jb.cols) {
		cols, err := j.gatherRead(ctx, left, li, ri)
		if err != nil {
			return nil, err
		}
		defer ReleaseArrays(cols)
		return NewBatch(j.EC, j.Out, cols, int64(len(li)))
	}
	c, err := j.pairBatch(ctx, left, li, ri)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	return NewBatch(j.EC, j.Out, c.Columns(), c.NumRows())
}

// gatherRead gathers the pairs' values of the columns someone reads and
// fills the others with NULLs.
func (j *HashJoin) gatherRead(ctx context.Context, left []arrow.Array, li, ri []int32) ([]arrow.Array, error) {
	n := len(li)
	out := make([]arrow.Array, len(left)+len(j.jb.cols))
	side := func(cols []arrow.Array, idx []int32, off int) error {
		var read []arrow.Array
		for c, col := range cols {
			if !j.Unread[off+c] {
				read = append(read, col)
			}
		}
		got, err := takeColumns(ctx, j.EC, read, idx)
		if err != nil {
			return err
		}
		k := 0
		for c, col := range cols {
			if j.Unread[off+c] {
				out[off+c] = array.MakeArrayOfNull(j.EC.Mem, col.DataType(), n)
				continue
			}
			out[off+c] = got[k]
			k++
		}
		return nil
	}
	if err := side(left, li, 0); err != nil {
		ReleaseArrays(out)
		return nil, err
	}
	if err := side(j.jb.cols, ri, len(left)); err != nil {
		ReleaseArrays(out)
		return nil, err
	}
	return out, nil
}

// unmatchedRight emits, batch by batch, the build rows no probe row
// matched (Right and Full joins).
func (j *HashJoin) unmatchedRight(ctx context.Context) (arrow.RecordBatch, error) {
	var ri []int32
	for ; j.rightPos < len(j.matched) && len(ri) < j.batchRows(); j.rightPos++ {
		if !j.matched[j.rightPos] {
			ri = append(ri, int32(j.rightPos))
		}
	}
	if len(ri) == 0 {
		return nil, nil
	}
	ls := j.Left.Schema()
	left := make([]arrow.Array, ls.NumFields())
	for i, f := range ls.Fields() {
		left[i] = array.MakeArrayOfNull(j.EC.Mem, f.Type, 1)
	}
	defer ReleaseArrays(left)
	li := make([]int32, len(ri))
	for i := range li {
		li[i] = -1
	}
	return j.assemble(ctx, left, li, ri)
}
