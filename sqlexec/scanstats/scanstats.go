// Package scanstats holds what an Iceberg scan did, for EXPLAIN ANALYZE:
// the planning counts of scan.Plan, the readers' datafile.ReadStats and
// the bytes fetched through the table's FileIO. The counters exist only
// when a statement is analyzed (planner.ScanRequest.Analysis is set);
// both the engine's table source and the row-level writes' target table
// attach them.
package scanstats

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/planner"
)

// Counters are one Scan node's counters, summed over its runs.
type Counters struct {
	mu    sync.Mutex
	plan  scan.Stats
	read  datafile.ReadStats
	bytes atomic.Int64
}

// For returns the counters of an analyzed scan (nil: not analyzed; every
// method of a nil *Counters does nothing).
func For(req planner.ScanRequest) *Counters {
	if req.Analysis == nil {
		return nil
	}
	c, _ := req.Analysis.Counters(func() fmt.Stringer { return new(Counters) }).(*Counters)
	return c
}

// AddPlan adds one planning's counts (a node that runs again plans again).
func (c *Counters) AddPlan(s scan.Stats) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p := &c.plan
	p.Manifests += s.Manifests
	p.ManifestsPruned += s.ManifestsPruned
	p.DeleteManifests += s.DeleteManifests
	p.DeleteManifestsPruned += s.DeleteManifestsPruned
	p.DataFiles += s.DataFiles
	p.PrunedByPartition += s.PrunedByPartition
	p.PrunedByMetrics += s.PrunedByMetrics
	p.PlannedFiles += s.PlannedFiles
	p.DeleteFiles += s.DeleteFiles
}

// IO is the FileIO the scan's readers use: fio, counting bytes read.
func (c *Counters) IO(fio fileio.FileIO) fileio.FileIO {
	if c == nil {
		return fio
	}
	return fileio.CountReads(fio, &c.bytes)
}

// ReadStats is what the scan's datafile.ReadOptions.Stats should be.
func (c *Counters) ReadStats() *datafile.ReadStats {
	if c == nil {
		return nil
	}
	return &c.read
}

// String is one line per kind of work; planner.Render prints them below
// the scan and leaves out the "bytes" line on request.
func (c *Counters) String() string {
	c.mu.Lock()
	p := c.plan
	c.mu.Unlock()
	groups, skipped, noMatch := c.read.RowGroups.Load(), c.read.RowGroupsSkipped.Load(), c.read.RowGroupsNoMatch.Load()
	whole := ""
	if noMatch > 0 {
		// only the filter's columns were decoded, and no row matched
		whole = fmt.Sprintf("; %d skipped after the filter's columns matched no row", noMatch)
	}
	if n := c.read.RowGroupsWhole.Load(); n > 0 {
		// their statistics prove the filter: it was not evaluated on them
		whole += fmt.Sprintf("; %d matching the filter whole", n)
	}
	return fmt.Sprintf("files: planned %d of %d (pruned %d by partition, %d by metrics), read %d; manifests %d of %d\n"+
		"row groups: read %d of %d (skipped %d by statistics)%s\n"+
		"delete files: applied %d of %d planned\n"+
		"bytes read: %d\n"+
		"data files from the cache: %d",
		p.PlannedFiles, p.DataFiles, p.PrunedByPartition, p.PrunedByMetrics, c.read.Files.Load(),
		p.Manifests-p.ManifestsPruned, p.Manifests,
		groups-skipped-noMatch, groups, skipped, whole,
		c.read.DeleteFiles(), p.DeleteFiles,
		c.bytes.Load(), c.read.CacheHits.Load())
}
