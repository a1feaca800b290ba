package maintenance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

// RewriteStrategy is rewrite_data_files' strategy argument.
type RewriteStrategy string

// The strategies Spark's rewrite_data_files accepts.
const (
	StrategyBinpack RewriteStrategy = "binpack"
	StrategySort    RewriteStrategy = "sort"
)

// Spark's rewrite_data_files option defaults.
const (
	DefaultMinInputFiles   = 5
	minFileSizeRatio       = 0.75
	maxFileSizeRatio       = 1.80
	defaultDeleteThreshold = 1
)

// RewriteOptions are rewrite_data_files' arguments and options.
type RewriteOptions struct {
	// Where limits the rewrite to files that may hold matching rows (whole
	// files are rewritten); nil means every file.
	Where expr.Expr
	// CaseSensitive resolves Where's column names exactly.
	CaseSensitive bool
	// Strategy is binpack (default) or sort.
	Strategy RewriteStrategy
	// SortOrder is the sort strategy's order; nil means the table's.
	SortOrder *iceberg.SortOrder
	// TargetFileSizeBytes defaults to write.target-file-size-bytes.
	TargetFileSizeBytes int64
	// MinFileSizeBytes and MaxFileSizeBytes bound the files left alone
	// (default 75% and 180% of the target).
	MinFileSizeBytes int64
	MaxFileSizeBytes int64
	// MinInputFiles is how many candidate files a partition needs before it
	// is rewritten for their number alone (default 5).
	MinInputFiles int
	// RewriteAll rewrites every file regardless of size.
	RewriteAll bool
	// DeleteFileThreshold: a file with at least this many delete files
	// applying to it is rewritten whatever its size (default 1, so files
	// with deletes always are; Spark's default is 2147483647).
	DeleteFileThreshold int
}

// RewriteDataFiles compacts the data files of main's head: per partition,
// candidate files (too small, too large, or with deletes) are read with
// their deletes applied and rewritten as files near the target size (sorted
// first with the sort strategy). Everything is committed as one replace
// snapshot that removes the old data files and the delete files that
// applied only to them. The commit validates against the starting snapshot:
// if a concurrent commit removed a rewritten file or added delete files
// that may match Where, it fails with *iceberg.ValidationError and the new
// files are removed.
//
// New files get the commit's sequence number (Spark's
// use-starting-sequence-number is not supported), which is why concurrent
// delete files always fail the commit instead of being re-applied.
func RewriteDataFiles(ctx context.Context, tbl *table.Table, opts RewriteOptions) (RewriteDataResult, error) {
	cfg, err := resolveRewrite(tbl.Metadata(), opts)
	if err != nil {
		return RewriteDataResult{}, err
	}
	meta := tbl.Metadata()
	var sorter *rowSorter
	sortID := (*int)(nil)
	if cfg.Strategy == StrategySort {
		if sorter, err = newRowSorter(meta.CurrentSchema(), cfg.SortOrder); err != nil {
			return RewriteDataResult{}, err
		}
		id := cfg.SortOrder.OrderID
		sortID = &id
	}
	start := meta.CurrentSnapshot()
	if start == nil {
		return RewriteDataResult{}, nil
	}
	groups, all, err := planRewrite(ctx, tbl, start.SnapshotID, cfg)
	if err != nil || len(groups) == 0 {
		return RewriteDataResult{}, err
	}
	res := RewriteDataResult{}
	rewritten := map[string]bool{}
	var added []iceberg.DataFile
	removeAdded := func() {
		for _, f := range added {
			tbl.IO().Remove(context.WithoutCancel(ctx), f.FilePath)
		}
	}
	// One delete cache per rewrite: groups share the delete files their
	// tasks apply (parsed equality sets, sortedness of position deletes).
	deletes := datafile.NewDeleteCache(0)
	for _, g := range groups {
		w := newRollingWriter(tbl, g, cfg.TargetFileSizeBytes, sortID)
		err := rewriteGroup(ctx, w, tbl, g, sorter, deletes)
		var files []iceberg.DataFile
		if err == nil {
			files, err = w.close(ctx)
		}
		if err != nil {
			w.abort(context.WithoutCancel(ctx))
			removeAdded()
			return RewriteDataResult{}, err
		}
		added = append(added, files...)
		for _, task := range g {
			rewritten[task.File.FilePath] = true
			res.RewrittenDataFilesCount++
			res.RewrittenBytesCount += task.File.FileSizeInBytes
		}
	}

	startID := start.SnapshotID
	u := tbl.NewRewrite().Validate(&startID, iceberg.IsolationSnapshot, opts.Where).OwnFiles()
	for _, g := range groups {
		for _, task := range g {
			u.RemoveFile(task.File)
		}
	}
	for _, d := range appliedOnlyTo(all, rewritten) {
		u.RemoveFile(d)
		res.RemovedDeleteFilesCount++
	}
	for _, f := range added {
		u.AddDataFile(f)
	}
	committed, err := u.Commit(ctx)
	if err != nil {
		return RewriteDataResult{}, err
	}
	res.AddedDataFilesCount = int64(len(added))
	res.SnapshotID = committed.Metadata().CurrentSnapshotID()
	return res, nil
}

// resolveRewrite fills the option defaults and checks them.
func resolveRewrite(meta *iceberg.TableMetadata, o RewriteOptions) (RewriteOptions, error) {
	const proc = "rewrite_data_files"
	bad := func(arg, reason string) (RewriteOptions, error) {
		return o, &ArgumentError{Procedure: proc, Argument: arg, Reason: reason}
	}
	switch o.Strategy {
	case "":
		o.Strategy = StrategyBinpack
	case StrategyBinpack, StrategySort:
	default:
		return bad("strategy", fmt.Sprintf("%q is not binpack or sort", o.Strategy))
	}
	if o.Strategy == StrategySort && o.SortOrder == nil {
		o.SortOrder = meta.SortOrder()
		if o.SortOrder == nil || len(o.SortOrder.Fields) == 0 {
			return bad("sort_order", "the table has no sort order; give one")
		}
	}
	if o.Strategy == StrategyBinpack && o.SortOrder != nil {
		return bad("sort_order", "only the sort strategy takes a sort order")
	}
	if o.TargetFileSizeBytes < 0 || o.MinFileSizeBytes < 0 || o.MaxFileSizeBytes < 0 || o.MinInputFiles < 0 || o.DeleteFileThreshold < 0 {
		return bad("options", "sizes and counts must be positive")
	}
	if o.TargetFileSizeBytes == 0 {
		o.TargetFileSizeBytes = meta.PropertyInt(iceberg.PropWriteTargetFileSizeBytes, iceberg.DefaultWriteTargetFileSizeBytes)
		if o.TargetFileSizeBytes <= 0 {
			return bad("target-file-size-bytes", "write.target-file-size-bytes is not a positive integer")
		}
	}
	if o.MinFileSizeBytes == 0 {
		o.MinFileSizeBytes = int64(float64(o.TargetFileSizeBytes) * minFileSizeRatio)
	}
	if o.MaxFileSizeBytes == 0 {
		o.MaxFileSizeBytes = int64(math.Min(float64(o.TargetFileSizeBytes)*maxFileSizeRatio, math.MaxInt64))
	}
	if o.MinFileSizeBytes > o.TargetFileSizeBytes || o.MaxFileSizeBytes < o.TargetFileSizeBytes {
		return bad("min-file-size-bytes", "need min-file-size-bytes <= target-file-size-bytes <= max-file-size-bytes")
	}
	if o.MinInputFiles == 0 {
		o.MinInputFiles = DefaultMinInputFiles
	}
	if o.DeleteFileThreshold == 0 {
		o.DeleteFileThreshold = defaultDeleteThreshold
	}
	return o, nil
}

// planRewrite picks the groups of files to rewrite (one group per
// partition) and returns them with the full plan of the snapshot.
func planRewrite(ctx context.Context, tbl *table.Table, snapshotID int64, o RewriteOptions) ([][]scan.FileScanTask, []scan.FileScanTask, error) {
	open := func(p string) (io.ReadCloser, error) { return tbl.IO().Open(ctx, p) }
	meta := tbl.Metadata()
	// The filtered plan reads the same manifests again.
	manifests := scan.NewManifestCache(0)
	all, _, err := scan.Plan(ctx, open, meta, snapshotID, nil, scan.Options{Cache: manifests})
	if err != nil {
		return nil, nil, err
	}
	inScope := map[string]bool{}
	if o.Where == nil {
		for _, t := range all {
			inScope[t.File.FilePath] = true
		}
	} else {
		matching, _, err := scan.Plan(ctx, open, meta, snapshotID, o.Where, scan.Options{CaseSensitive: o.CaseSensitive, Cache: manifests})
		if err != nil {
			return nil, nil, err
		}
		for _, t := range matching {
			inScope[t.File.FilePath] = true
		}
	}
	byPartition := map[string][]scan.FileScanTask{}
	var order []string
	for _, t := range all {
		if !inScope[t.File.FilePath] {
			continue
		}
		size := t.File.FileSizeInBytes
		if !o.RewriteAll && size >= o.MinFileSizeBytes && size <= o.MaxFileSizeBytes && len(t.Deletes) < o.DeleteFileThreshold {
			continue
		}
		k := iceberg.PartitionKey(t.File.SpecID, t.File.Partition)
		if _, ok := byPartition[k]; !ok {
			order = append(order, k)
		}
		byPartition[k] = append(byPartition[k], t)
	}
	slices.Sort(order)
	var groups [][]scan.FileScanTask
	for _, k := range order {
		g := byPartition[k]
		var bytes int64
		deletes := false
		for _, t := range g {
			bytes += t.File.FileSizeInBytes
			deletes = deletes || len(t.Deletes) >= o.DeleteFileThreshold
		}
		enoughFiles := len(g) > 1 && len(g) >= o.MinInputFiles
		enoughContent := len(g) > 1 && bytes > o.TargetFileSizeBytes
		if o.RewriteAll || enoughFiles || enoughContent || deletes {
			groups = append(groups, g)
		}
	}
	return groups, all, nil
}

// rewriteGroup reads a group's rows with deletes applied and writes them.
func rewriteGroup(ctx context.Context, w *rollingWriter, tbl *table.Table, g []scan.FileScanTask, sorter *rowSorter, deletes *datafile.DeleteCache) error {
	var held []arrow.RecordBatch
	defer func() {
		for _, r := range held {
			r.Release()
		}
	}()
	for _, task := range g {
		it, err := datafile.ReadTask(ctx, tbl.IO(), tbl.Metadata(), task, nil, datafile.ReadOptions{DeleteCache: deletes})
		if err != nil {
			return err
		}
		for {
			rec, err := it.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				it.Close()
				return err
			}
			if sorter != nil {
				held = append(held, rec)
				continue
			}
			err = w.write(ctx, rec)
			rec.Release()
			if err != nil {
				it.Close()
				return err
			}
		}
		it.Close()
	}
	if sorter == nil || len(held) == 0 {
		return nil
	}
	sorted, err := sorter.sort(ctx, held)
	if err != nil {
		return err
	}
	defer sorted.Release()
	return w.write(ctx, sorted)
}

// appliedOnlyTo returns the delete files whose every target data file (in
// the full plan) is being rewritten: their deletes are now applied.
func appliedOnlyTo(all []scan.FileScanTask, rewritten map[string]bool) []iceberg.DataFile {
	files := map[string]iceberg.DataFile{}
	onlyRewritten := map[string]bool{}
	var order []string
	for _, t := range all {
		for _, d := range t.Deletes {
			p := d.File.FilePath
			if _, seen := files[p]; !seen {
				files[p] = d.File
				onlyRewritten[p] = true
				order = append(order, p)
			}
			if !rewritten[t.File.FilePath] {
				onlyRewritten[p] = false
			}
		}
	}
	var out []iceberg.DataFile
	for _, p := range order {
		if onlyRewritten[p] {
			out = append(out, files[p])
		}
	}
	return out
}
