package datafile

import (
	"sync"
	"sync/atomic"
)

// ReadStats counts what ReadTask did, for EXPLAIN ANALYZE. The tasks of one
// scan may share one ReadStats from several goroutines.
type ReadStats struct {
	// Files counts the data files opened.
	Files atomic.Int64
	// RowGroups counts the row groups of the opened files;
	// RowGroupsSkipped those of them skipped by their statistics, and
	// RowGroupsWhole those read whose statistics prove every row matches
	// the residual (not evaluated on them).
	RowGroups        atomic.Int64
	RowGroupsSkipped atomic.Int64
	RowGroupsWhole   atomic.Int64
	// RowGroupsNoMatch counts row groups skipped after reading only the
	// residual's columns found no matching row (groupProbe).
	RowGroupsNoMatch atomic.Int64
	// CacheHits counts the data files of Files served by
	// ReadOptions.Files without touching storage.
	CacheHits atomic.Int64

	mu      sync.Mutex
	deletes map[string]struct{}
}

// DeleteFiles is the number of distinct delete files (position, equality
// and deletion vectors) applied to the data files read.
func (s *ReadStats) DeleteFiles() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.deletes)
}

func (s *ReadStats) addDeletes(groups ...[]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range groups {
		for _, p := range g {
			if s.deletes == nil {
				s.deletes = map[string]struct{}{}
			}
			s.deletes[p] = struct{}{}
		}
	}
}
