package exec

import (
	"context"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
)

// joinSpill drives a spilled hash join: it partitions both inputs, then
// joins the partitions one at a time. It owns every spill file.
type joinSpill struct {
	j     *HashJoin // the operator's settings (keys, type, schemas)
	files spillFiles
	todo  []joinPart // partitions still to join, a stack
	cur   *HashJoin  // the partition being joined
	curJB *JoinBuild
	// joined and repartitioned count partitions (for tests).
	joined, repartitioned int
}

// joinPart is one partition: its build and probe files, the build
// file's estimated in-memory size and the level that produced it.
type joinPart struct {
	build, probe sortedRun
	buildBytes   int64
	level        int
}

func newJoinSpill(j *HashJoin) *joinSpill {
	return &joinSpill{j: j, files: spillFiles{dir: j.EC.SpillDir}}
}

// keepNullBuild: build rows with a NULL key matter only as unmatched
// rows of RIGHT and FULL joins.
func (sp *joinSpill) keepNullBuild() bool {
	return sp.j.Type == JoinRight || sp.j.Type == JoinFull
}

// keepNullProbe: probe rows with a NULL key matter only as unmatched
// rows of LEFT, FULL and anti joins; NOT IN drops them, the build side
// being non-empty once it spills.
func (sp *joinSpill) keepNullProbe() bool {
	switch sp.j.Type {
	case JoinLeft, JoinFull:
		return true
	case JoinAnti:
		return !sp.j.NullAware
	}
	return false
}

func (sp *joinSpill) partitioner(schema *arrow.Schema, keys []Expr, seed maphash.Seed, keepNull bool) *joinPartitioner {
	return newJoinPartitioner(sp.j.EC, &sp.files, schema, keys, seed, sp.j.NullsEqual, keepNull)
}

// start partitions held (taken over) and the rest of the build input,
// then the whole probe input.
func (sp *joinSpill) start(ctx context.Context, held []arrow.RecordBatch) error {
	j := sp.j
	seed := maphash.MakeSeed()
	bp := sp.partitioner(j.Right.Schema(), j.RightKeys, seed, sp.keepNullBuild())
	err := sp.addAll(ctx, bp, held)
	ReleaseAll(held)
	if err == nil {
		err = bp.consume(ctx, j.Right)
	}
	if err != nil {
		bp.abort()
		sp.release()
		return err
	}
	builds, err := bp.finish()
	if err != nil {
		sp.release()
		return err
	}
	if j.NullAware && bp.sawNull {
		// NOT IN against a list holding NULL keeps no row
		sp.release()
		return nil
	}
	pp := sp.partitioner(j.Left.Schema(), j.LeftKeys, seed, sp.keepNullProbe())
	if err := pp.consume(ctx, j.Left); err != nil {
		pp.abort()
		sp.release()
		return err
	}
	probes, err := pp.finish()
	if err != nil {
		sp.release()
		return err
	}
	sp.push(builds, bp.bytes, probes, 1, -1)
	return nil
}

func (sp *joinSpill) addAll(ctx context.Context, p *joinPartitioner, bs []arrow.RecordBatch) error {
	for _, b := range bs {
		if err := p.add(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// push stacks the partitions that can produce rows and removes the
// others' files. A partition holding all parentRows build rows did not
// split: it goes straight to the last level.
func (sp *joinSpill) push(builds [joinFanOut]sortedRun, bytes [joinFanOut]int64, probes [joinFanOut]sortedRun, level int, parentRows int64) {
	for i := range joinFanOut {
		p := joinPart{build: builds[i], probe: probes[i], buildBytes: bytes[i], level: level}
		if !sp.canOutput(p) {
			sp.files.remove(p.build.path)
			sp.files.remove(p.probe.path)
			continue
		}
		if p.build.rows == parentRows {
			p.level = maxJoinLevel
		}
		sp.todo = append(sp.todo, p)
	}
}

// canOutput reports whether joining p can produce a row.
func (sp *joinSpill) canOutput(p joinPart) bool {
	hasBuild, hasProbe := p.build.rows > 0, p.probe.rows > 0
	switch sp.j.Type {
	case JoinInner, JoinSemi:
		return hasBuild && hasProbe
	case JoinLeft, JoinAnti:
		return hasProbe
	case JoinRight:
		return hasBuild
	}
	return hasBuild || hasProbe
}

// next returns the next output batch of the partition joins.
func (sp *joinSpill) next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			sp.release()
			return nil, err
		}
		if sp.cur != nil {
			b, err := sp.cur.Next(ctx)
			if err != nil {
				sp.release()
				return nil, err
			}
			if b != nil {
				return b, nil
			}
			sp.closeCur()
			continue
		}
		if len(sp.todo) == 0 {
			sp.release()
			return nil, nil
		}
		p := sp.todo[len(sp.todo)-1]
		sp.todo = sp.todo[:len(sp.todo)-1]
		if p.level < maxJoinLevel && buildEstimate(p.buildBytes, p.build.rows) > sp.j.EC.memoryLimit() {
			if err := sp.repartition(ctx, p); err != nil {
				sp.release()
				return nil, err
			}
			continue
		}
		sp.open(p)
	}
}

// open starts the in-memory join of one partition.
func (sp *joinSpill) open(p joinPart) {
	j := sp.j
	sp.joined++
	build := newSpillRunIter(j.EC, &sp.files, p.build, j.Right.Schema())
	probe := newSpillRunIter(j.EC, &sp.files, p.probe, j.Left.Schema())
	sp.curJB = NewJoinBuild(j.EC, build, j.RightKeys, j.NullsEqual)
	sp.cur = &HashJoin{Left: probe, Shared: sp.curJB, LeftKeys: j.LeftKeys, RightKeys: j.RightKeys,
		Residual: j.Residual, Type: j.Type, NullAware: j.NullAware, NullsEqual: j.NullsEqual,
		Out: j.Out, EC: j.EC, BatchRows: j.BatchRows, Unread: j.Unread}
}

func (sp *joinSpill) closeCur() {
	if sp.cur != nil {
		sp.cur.Close()
		sp.cur = nil
	}
	if sp.curJB != nil {
		sp.curJB.Close()
		sp.curJB = nil
	}
}

// repartition splits one partition's build and probe files with a
// fresh seed and stacks the pieces.
func (sp *joinSpill) repartition(ctx context.Context, p joinPart) error {
	j := sp.j
	sp.repartitioned++
	seed := maphash.MakeSeed()
	bp := sp.partitioner(j.Right.Schema(), j.RightKeys, seed, sp.keepNullBuild())
	pp := sp.partitioner(j.Left.Schema(), j.LeftKeys, seed, sp.keepNullProbe())
	build := newSpillRunIter(j.EC, &sp.files, p.build, j.Right.Schema())
	err := bp.consume(ctx, build)
	build.Close()
	if err != nil {
		bp.abort()
		return err
	}
	probe := newSpillRunIter(j.EC, &sp.files, p.probe, j.Left.Schema())
	err = pp.consume(ctx, probe)
	probe.Close()
	if err != nil {
		bp.abort()
		pp.abort()
		return err
	}
	builds, err := bp.finish()
	if err != nil {
		pp.abort()
		return err
	}
	probes, err := pp.finish()
	if err != nil {
		return err
	}
	sp.push(builds, bp.bytes, probes, p.level+1, p.build.rows)
	return nil
}

// release closes the current partition join and removes every spill
// file; it is safe to call more than once.
func (sp *joinSpill) release() {
	sp.closeCur()
	sp.files.removeAll()
	sp.todo = nil
}
