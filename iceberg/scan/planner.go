package scan

import (
	"fmt"
	"sync"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/manifest"
)

type planner struct {
	schema *iceberg.Schema
	filter expr.BoundExpr
	specs  map[int]*iceberg.PartitionSpec
	cache  *ManifestCache // nil: no cache

	mu      sync.Mutex
	perSpec map[int]*specEvaluators
}

// specEvaluators are the filter's projections for one partition spec.
type specEvaluators struct {
	spec      *iceberg.PartitionSpec
	ptype     *iceberg.StructType
	ptypeKey  string // ptype's fingerprint in cache keys
	manifest  *expr.ManifestEvaluator
	partition *expr.PartitionEvaluator
	residual  *expr.ResidualEvaluator
}

func (p *planner) evaluators(specID int) (*specEvaluators, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ev, ok := p.perSpec[specID]; ok {
		return ev, nil
	}
	spec, ok := p.specs[specID]
	if !ok {
		return nil, fmt.Errorf("%w: partition spec %d is not in the table metadata", iceberg.ErrInvalidManifest, specID)
	}
	ptype, err := expr.PartitionType(spec, p.schema)
	if err != nil {
		return nil, err
	}
	projected, err := expr.InclusiveProjection(spec, p.schema, p.filter)
	if err != nil {
		return nil, err
	}
	residual, err := expr.NewResidualEvaluator(spec, p.schema, p.filter)
	if err != nil {
		return nil, err
	}
	ev := &specEvaluators{
		spec: spec, ptype: ptype, ptypeKey: partitionTypeKey(ptype),
		manifest:  expr.NewManifestEvaluator(spec, projected),
		partition: expr.NewPartitionEvaluator(spec, projected),
		residual:  residual,
	}
	p.perSpec[specID] = ev
	return ev, nil
}

// keepManifest prunes by counts (a manifest listing only removed files)
// and by partition summaries.
func (p *planner) keepManifest(mf *iceberg.ManifestFile) (bool, error) {
	if !mf.HasAddedFiles() && !mf.HasExistingFiles() && mf.HasDeletedFiles() {
		return false, nil
	}
	ev, err := p.evaluators(mf.SpecID)
	if err != nil {
		return false, err
	}
	return ev.manifest.Eval(mf)
}

type manifestResult struct {
	entries           []iceberg.ManifestEntry
	live              int
	prunedByPartition int
	prunedByMetrics   int
	spec              *iceberg.PartitionSpec
	residual          *expr.ResidualEvaluator
}

// readManifest keeps the live entries of one manifest that may match:
// data files by partition and metrics, delete files by partition.
func (p *planner) readManifest(open Opener, mf *iceberg.ManifestFile) (manifestResult, error) {
	ev, err := p.evaluators(mf.SpecID)
	if err != nil {
		return manifestResult{}, err
	}
	res := manifestResult{spec: ev.spec, residual: ev.residual}
	entries, err := p.cache.manifestEntries(mf, ev.ptypeKey, func() ([]iceberg.ManifestEntry, error) {
		return liveEntries(open, mf, ev)
	})
	if err != nil {
		return res, err
	}
	metrics := expr.NewInclusiveMetricsEvaluator(p.filter)
	isData := mf.Content == iceberg.ManifestContentData
	if isData {
		res.live = len(entries)
	}
	for i := range entries {
		e := &entries[i]
		if !ev.partition.Eval(e.DataFile.Partition) {
			if isData {
				res.prunedByPartition++
			}
			continue
		}
		if isData {
			ok, err := metrics.Eval(&e.DataFile)
			if err != nil {
				return res, fmt.Errorf("data file %s: %w", e.DataFile.FilePath, err)
			}
			if !ok {
				res.prunedByMetrics++
				continue
			}
		}
		res.entries = append(res.entries, *e)
	}
	return res, nil
}

// liveEntries decodes a manifest's entries that are not DELETED, checking
// each partition tuple against the spec.
func liveEntries(open Opener, mf *iceberg.ManifestFile, ev *specEvaluators) ([]iceberg.ManifestEntry, error) {
	rc, err := open(mf.Path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var out []iceberg.ManifestEntry
	for e, err := range manifest.ReadManifest(rc, *mf, manifest.WithPath(mf.Path), manifest.WithPartitionType(ev.ptype)) {
		if err != nil {
			return nil, err
		}
		if e.Status == iceberg.StatusDeleted {
			continue
		}
		if len(e.DataFile.Partition) != len(ev.spec.Fields) {
			return nil, fmt.Errorf("%w: %s has %d partition values for spec %d with %d fields",
				iceberg.ErrInvalidManifest, e.DataFile.FilePath, len(e.DataFile.Partition), ev.spec.ID, len(ev.spec.Fields))
		}
		e.DataFile.SpecID = mf.SpecID
		out = append(out, e)
	}
	return out, nil
}
