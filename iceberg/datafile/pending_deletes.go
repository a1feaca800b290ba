package datafile

import (
	"context"
	"fmt"
	"slices"

	"github.com/icesql/icesql/iceberg"
)

// pendingDeletes are the deleted positions of one data file, held until a
// delete writer's Close.
type pendingDeletes struct {
	file      iceberg.DataFile
	positions []int64
	sorted    bool // still strictly increasing after every append
}

// pendingSet collects the pending deletes of the data files a delete
// writer was given, remembering the order they came in.
type pendingSet struct {
	byPath map[string]*pendingDeletes
	order  []string
}

func newPendingSet() pendingSet {
	return pendingSet{byPath: map[string]*pendingDeletes{}}
}

// target checks the positions of a Delete call (non-negative, strictly
// increasing, below the file's row count) and returns the pending
// deletes of file, nil when there are no positions.
func (s *pendingSet) target(ctx context.Context, file iceberg.DataFile, positions []int64) (*pendingDeletes, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, p := range positions {
		if p < 0 || (i > 0 && p <= positions[i-1]) {
			return nil, fmt.Errorf("%w: %s at index %d", ErrUnsortedPositions, file.FilePath, i)
		}
		if file.RecordCount > 0 && p >= file.RecordCount {
			return nil, fmt.Errorf("%w: position %d is past the %d rows of %s", ErrUnsortedPositions, p, file.RecordCount, file.FilePath)
		}
	}
	if len(positions) == 0 {
		return nil, nil
	}
	pd, ok := s.byPath[file.FilePath]
	if !ok {
		pd = &pendingDeletes{file: file, sorted: true}
		s.byPath[file.FilePath] = pd
		s.order = append(s.order, file.FilePath)
	}
	return pd, nil
}

// sortedPaths returns the data file paths in order.
func (s *pendingSet) sortedPaths() []string {
	paths := slices.Clone(s.order)
	slices.Sort(paths)
	return paths
}
