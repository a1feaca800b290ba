package iceberg

import "sync"

// Versions of a table's metadata share their history. The snapshots (and
// the snapshot log) of each version are a prefix of one backing array, and
// a builder whose version holds the whole claimed prefix appends in place,
// so a commit on a table with 10,000 snapshots copies none of them. A
// builder that would write where another version already has (a retry
// built on an older base) or that removes entries (expiry) copies first.

// sharedRun owns one backing array: all is the prefix of it some version
// has written. A slice may append in place only when it is all (the same
// length, the same array) and has room; slots past len(all) belong to no
// version, and those before it never change.
type sharedRun[T any] struct {
	mu  sync.Mutex
	all []T
}

func newSharedRun[T any](s []T) *sharedRun[T] { return &sharedRun[T]{all: s} }

// appendShared appends x to s, whose backing array run owns (run may be
// nil: unknown owner). It returns the new slice and its owner: run when
// the append happened in place, a new run over a new array otherwise.
func appendShared[T any](s []T, run *sharedRun[T], x T) ([]T, *sharedRun[T]) {
	if run != nil {
		run.mu.Lock()
		ns, ok := run.appendLocked(s, x)
		run.mu.Unlock()
		if ok {
			return ns, run
		}
	}
	ns := grown(s, x)
	return ns, newSharedRun(ns)
}

// appendLocked appends x to s in place when s is all of r's prefix and
// has room: the slot it writes is past every version's prefix.
func (r *sharedRun[T]) appendLocked(s []T, x T) ([]T, bool) {
	if len(s) == 0 || len(s) == cap(s) || len(r.all) != len(s) || &r.all[0] != &s[0] {
		return s, false
	}
	s = append(s, x)
	r.all = s
	return s, true
}

// grown is s and x in a new array with room to append in place again.
func grown[T any](s []T, x T) []T {
	ns := make([]T, len(s), 2*len(s)+8)
	copy(ns, s)
	return append(ns, x)
}

// snapshotRun is the sharedRun of snapshots, with an index by id over all
// of its prefix, built on the first lookup of a history too long to scan
// and kept up to date by appends in place: every version sharing the array
// looks up through it.
type snapshotRun struct {
	sharedRun[*Snapshot]
	pos   map[int64]int // id → index in all; nil until needed
	dupAt int           // the first index whose id an earlier one has, or -1

	// all[:okN] passed validateSnapshots' checks of each snapshot for
	// format version okV and last-sequence-number okSeq, so a version
	// built on them checks only what it added.
	okN, okV int
	okSeq    int64
}

// checked returns how many of the first n snapshots are known to pass
// the checks for format version v and last-sequence-number seq: a
// sequence number at most okSeq is at most seq when seq >= okSeq, and a
// manifest list checked for in v2 is there in v1.
func (r *snapshotRun) checked(n, v int, seq int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seq < r.okSeq || (v >= 2 && r.okV < 2) {
		return 0
	}
	return min(n, r.okN)
}

// setChecked records that the first n snapshots passed for v and seq.
func (r *snapshotRun) setChecked(n, v int, seq int64) {
	r.mu.Lock()
	if n >= r.okN {
		r.okN, r.okV, r.okSeq = n, v, seq
	}
	r.mu.Unlock()
}

func newSnapshotRun(s []*Snapshot) *snapshotRun {
	return &snapshotRun{sharedRun: sharedRun[*Snapshot]{all: s}, dupAt: -1}
}

// indexLocked builds pos over all.
func (r *snapshotRun) indexLocked() {
	if r.pos != nil {
		return
	}
	r.pos = make(map[int64]int, len(r.all))
	for i, s := range r.all {
		if _, ok := r.pos[s.SnapshotID]; ok {
			if r.dupAt < 0 {
				r.dupAt = i
			}
			continue
		}
		r.pos[s.SnapshotID] = i
	}
}

// find looks id up in s, a prefix of r's array.
func (r *snapshotRun) find(s []*Snapshot, id int64) (*Snapshot, bool) {
	if r == nil || len(s) <= smallSnapshots {
		return scanSnapshots(s, id)
	}
	r.mu.Lock()
	r.indexLocked()
	i, ok := r.pos[id]
	r.mu.Unlock()
	if !ok || i >= len(s) {
		return nil, false
	}
	return s[i], true
}

// duplicate returns an id that s (a prefix of r's array) holds twice.
func (r *snapshotRun) duplicate(s []*Snapshot) (int64, bool) {
	r.mu.Lock()
	r.indexLocked()
	at := r.dupAt
	r.mu.Unlock()
	if at < 0 || at >= len(s) {
		return 0, false
	}
	return s[at].SnapshotID, true
}

// appendToRun appends x to s (owned by r, which may be nil), keeping
// the index of the run it lands in.
func appendToRun(s []*Snapshot, r *snapshotRun, x *Snapshot) ([]*Snapshot, *snapshotRun) {
	if r != nil {
		r.mu.Lock()
		ns, ok := r.appendLocked(s, x)
		if ok && r.pos != nil {
			if _, dup := r.pos[x.SnapshotID]; !dup {
				r.pos[x.SnapshotID] = len(ns) - 1
			} else if r.dupAt < 0 {
				r.dupAt = len(ns) - 1
			}
		}
		r.mu.Unlock()
		if ok {
			return ns, r
		}
	}
	ns := grown(s, x)
	return ns, newSnapshotRun(ns)
}
