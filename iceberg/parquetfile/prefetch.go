package parquetfile

import (
	"sync"
	"sync/atomic"
)

// decodePool is a reader's decode workers: they fill the page queues of
// the flat columns (current row group first, then the next one) up to
// their limit, and sleep when every queue is full.
type decodePool struct {
	queues atomic.Pointer[queueSet]
	wake   chan struct{}
	stop   chan struct{}
	wg     sync.WaitGroup
}

func newDecodePool(workers int) *decodePool {
	p := &decodePool{wake: make(chan struct{}, 1), stop: make(chan struct{})}
	for range workers {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

// queueSet is the queues workers serve: the current row group's, then
// the next one's.
type queueSet struct {
	current, next []*pageQueue
}

// setQueues replaces the queues the workers serve.
func (p *decodePool) setQueues(current, next []*pageQueue) {
	p.queues.Store(&queueSet{current: current, next: next})
	p.signal()
}

// signal wakes a worker: a queue has room.
func (p *decodePool) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *decodePool) work() {
	defer p.wg.Done()
	for {
		if !p.decodeOne() {
			select {
			case <-p.wake:
			case <-p.stop:
				return
			}
			continue
		}
		select {
		case <-p.stop:
			return
		default:
		}
	}
}

// decodeOne claims and decodes a page for the neediest queue (fewest
// pages claimed; the current row group's before the next one's); false
// when every queue is full or finished.
func (p *decodePool) decodeOne() bool {
	set := p.queues.Load()
	if set == nil {
		return false
	}
	for _, qs := range [][]*pageQueue{set.current, set.next} {
		for {
			q := neediest(qs)
			if q == nil {
				break
			}
			// nil: the queue finished meanwhile, and is marked so.
			if s := q.claimNext(); s != nil {
				// Others may have room too: keep a sleeping worker going.
				p.signal()
				q.finish(s)
				return true
			}
		}
	}
	return false
}

// neediest is the queue with the fewest pages claimed, if any has room.
func neediest(qs []*pageQueue) *pageQueue {
	var best *pageQueue
	fewest := int32(queueDone)
	for _, q := range qs {
		if n := q.nslots.Load(); n < fewest && n < q.limit.Load() {
			best, fewest = q, n
		}
	}
	return best
}

// close stops the workers and waits for them.
func (p *decodePool) close() {
	close(p.stop)
	p.wg.Wait()
}
