package sqlexec

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
)

// rewriteDeletesResult is rewrite_position_delete_files' output.
type rewriteDeletesResult struct {
	rewritten, added           int32
	rewrittenBytes, addedBytes int64
}

func (rewriteDeletesResult) Columns() []maintenance.Column {
	i, l := iceberg.IntType{}, iceberg.LongType{}
	return []maintenance.Column{{Name: "rewritten_delete_files_count", Type: i}, {Name: "added_delete_files_count", Type: i},
		{Name: "rewritten_bytes_count", Type: l}, {Name: "added_bytes_count", Type: l}}
}

func (r rewriteDeletesResult) Rows() [][]any {
	return [][]any{{r.rewritten, r.added, r.rewrittenBytes, r.addedBytes}}
}

// rewriteDeletesOptions are the options rewrite_position_delete_files uses.
type rewriteDeletesOptions struct {
	target, min, max int64
	minInputFiles    int64
	rewriteAll       bool
}

const defaultDeleteTargetFileSize = 64 << 20 // write.delete.target-file-size-bytes

func parseRewriteDeletesOptions(meta *iceberg.TableMetadata, m map[string]string) (rewriteDeletesOptions, error) {
	o := rewriteDeletesOptions{minInputFiles: maintenance.DefaultMinInputFiles}
	o.target = meta.PropertyInt("write.delete.target-file-size-bytes", defaultDeleteTargetFileSize)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.TrimSpace(m[k])
		num := func(dst *int64) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return fmt.Errorf("option %s: %q is not a positive integer", k, m[k])
			}
			*dst = n
			return nil
		}
		var err error
		switch k {
		case "target-file-size-bytes":
			err = num(&o.target)
		case "min-file-size-bytes":
			err = num(&o.min)
		case "max-file-size-bytes":
			err = num(&o.max)
		case "min-input-files":
			err = num(&o.minInputFiles)
		case "rewrite-all":
			if o.rewriteAll, err = strconv.ParseBool(v); err != nil {
				err = fmt.Errorf("option %s: %q is not true or false", k, m[k])
			}
		case "max-concurrent-file-group-rewrites", "rewrite-job-order", "max-file-group-size-bytes":
			// Spark job scheduling only.
		case "partial-progress.enabled", "partial-progress.max-commits", "max-files-to-rewrite":
			err = fmt.Errorf("option %s is not supported by this engine", k)
		default:
			err = fmt.Errorf("unknown option %q", k)
		}
		if err != nil {
			return o, err
		}
	}
	if o.min == 0 {
		o.min = o.target * 3 / 4
	}
	if o.max == 0 {
		o.max = o.target * 18 / 10
	}
	if o.min > o.target || o.max < o.target {
		return o, fmt.Errorf("need min-file-size-bytes <= target-file-size-bytes <= max-file-size-bytes")
	}
	return o, nil
}

// callRewritePositionDeleteFiles compacts the position delete files of
// main's head. Per partition, small (or too large) delete files are
// rewritten into one file holding their deletes of live data files only
// (dangling deletes are dropped), and committed as a replace snapshot.
//
// Format v3 tables follow Java: if they hold no position delete files
// (only deletion vectors) nothing is done; otherwise every position delete
// file is rewritten into deletion vectors (a data file that already has
// one ignores its position delete files, which are dropped).
func callRewritePositionDeleteFiles(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	const proc = "rewrite_position_delete_files"
	bad := argErrorf(proc)
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	meta := t.Metadata()
	m, _ := a["options"].(map[string]string)
	opts, err := parseRewriteDeletesOptions(meta, m)
	if err != nil {
		return nil, bad("options", "%v", err)
	}
	var where map[string]bool // data files matching where; nil: all
	cur := meta.CurrentSnapshot()
	if w, ok := a.str("where"); ok {
		f, err := s.whereFilter(ctx, t.Ident(), w)
		if err != nil {
			return nil, bad("where", "%v", err)
		}
		if cur != nil {
			tasks, _, err := scan.Plan(ctx, opener(ctx, t.IO()), meta, cur.SnapshotID, f, scan.Options{Cache: s.engine.manifests})
			if err != nil {
				return nil, err
			}
			where = map[string]bool{}
			for _, tk := range tasks {
				where[tk.File.FilePath] = true
			}
		}
	}
	if cur == nil {
		return rewriteDeletesResult{}, nil
	}
	tasks, _, err := scan.Plan(ctx, opener(ctx, t.IO()), meta, cur.SnapshotID, nil, scan.Options{Cache: s.engine.manifests})
	if err != nil {
		return nil, err
	}
	posFiles, err := livePositionDeleteFiles(ctx, t, cur)
	if err != nil {
		return nil, err
	}
	// A delete file is in scope when where is absent or it applies to a
	// data file matching where.
	inScope := map[string]bool{}
	for _, d := range posFiles {
		inScope[d.FilePath] = where == nil
	}
	for _, tk := range tasks {
		if where != nil && where[tk.File.FilePath] {
			for _, d := range tk.Deletes {
				inScope[d.File.FilePath] = true
			}
		}
	}
	var selected []iceberg.DataFile
	if meta.FormatVersion() >= 3 {
		for _, d := range posFiles {
			if inScope[d.FilePath] {
				selected = append(selected, d)
			}
		}
	} else {
		selected = selectDeleteGroups(posFiles, inScope, opts)
	}
	if len(selected) == 0 {
		return rewriteDeletesResult{}, nil
	}
	return rewriteDeleteFiles(ctx, t, tasks, selected)
}

// livePositionDeleteFiles lists the live position delete files (not
// deletion vectors) of a snapshot.
func livePositionDeleteFiles(ctx context.Context, t *table.Table, snap *iceberg.Snapshot) ([]iceberg.DataFile, error) {
	mfs, err := table.ManifestsOf(ctx, t.IO(), snap)
	if err != nil {
		return nil, err
	}
	var out []iceberg.DataFile
	for _, mf := range mfs {
		if mf.Content != iceberg.ManifestContentDeletes {
			continue
		}
		entries, err := table.EntriesOf(ctx, t.IO(), t.Metadata(), mf)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			f := e.DataFile
			if e.Status == iceberg.StatusDeleted || f.Content != iceberg.ContentPositionDeletes || datafile.IsDeletionVector(f) {
				continue
			}
			f.SpecID = mf.SpecID
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].FilePath < out[j].FilePath })
	return out, nil
}

// selectDeleteGroups picks, per partition, the delete files to rewrite:
// files outside the size bounds (all with rewrite-all), when the partition
// has enough of them (min-input-files, or more bytes than the target) or
// one is too large, as Spark's bin-pack planner.
func selectDeleteGroups(files []iceberg.DataFile, inScope map[string]bool, o rewriteDeletesOptions) []iceberg.DataFile {
	byPartition := map[string][]iceberg.DataFile{}
	var keys []string
	for _, f := range files {
		if !inScope[f.FilePath] {
			continue
		}
		if !o.rewriteAll && f.FileSizeInBytes >= o.min && f.FileSizeInBytes <= o.max {
			continue
		}
		k := iceberg.PartitionKey(f.SpecID, f.Partition)
		if _, ok := byPartition[k]; !ok {
			keys = append(keys, k)
		}
		byPartition[k] = append(byPartition[k], f)
	}
	sort.Strings(keys)
	var out []iceberg.DataFile
	for _, k := range keys {
		g := byPartition[k]
		var bytes int64
		tooLarge := false
		for _, f := range g {
			bytes += f.FileSizeInBytes
			tooLarge = tooLarge || f.FileSizeInBytes > o.max
		}
		enoughFiles := len(g) > 1 && int64(len(g)) >= o.minInputFiles
		enoughContent := len(g) > 1 && bytes > o.target
		if o.rewriteAll || enoughFiles || enoughContent || tooLarge {
			out = append(out, g...)
		}
	}
	return out
}

// rewriteDeleteFiles writes the live deletes of the selected files anew
// (position delete files per partition, or deletion vectors in v3) and
// commits the replacement.
func rewriteDeleteFiles(ctx context.Context, t *table.Table, tasks []scan.FileScanTask, selected []iceberg.DataFile) (maintenance.Result, error) {
	meta := t.Metadata()
	chosen := map[string]bool{}
	for _, d := range selected {
		chosen[d.FilePath] = true
	}
	v3 := meta.FormatVersion() >= 3
	type writer interface {
		Delete(ctx context.Context, file iceberg.DataFile, positions []int64) error
		Close(ctx context.Context) ([]iceberg.DataFile, error)
		Abort(ctx context.Context) error
	}
	var w writer
	if v3 {
		w = datafile.NewDVWriter(ctx, t.IO(), meta, datafile.WriterOptions{})
	} else {
		w = datafile.NewPositionDeleteWriter(ctx, t.IO(), meta, datafile.PositionDeleteOptions{PerPartition: true})
	}
	for _, tk := range tasks {
		var mine []scan.DeleteFile
		hasDV := false
		for _, d := range tk.Deletes {
			if chosen[d.File.FilePath] {
				mine = append(mine, d)
			}
			hasDV = hasDV || datafile.IsDeletionVector(d.File)
		}
		if len(mine) == 0 || (v3 && hasDV) {
			continue // a deletion vector overrides position delete files
		}
		only := tk
		only.Deletes = mine
		positions, _, err := datafile.PreviousDeletes(ctx, t.IO(), only)
		if err != nil {
			w.Abort(context.WithoutCancel(ctx))
			return nil, err
		}
		if len(positions) == 0 {
			continue
		}
		if err := w.Delete(ctx, tk.File, positions); err != nil {
			w.Abort(context.WithoutCancel(ctx))
			return nil, err
		}
	}
	added, err := w.Close(ctx)
	if err != nil {
		return nil, err
	}
	var res rewriteDeletesResult
	u := t.NewRewrite().OwnFiles()
	for _, d := range selected {
		u.RemoveFile(d)
		res.rewritten++
		res.rewrittenBytes += d.FileSizeInBytes
	}
	for _, d := range added {
		u.AddDeleteFile(d)
		res.added++
		res.addedBytes += deleteContentSize(d)
	}
	if _, err := u.Commit(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// deleteContentSize is a delete file's bytes: a deletion vector's blob
// rather than its whole Puffin file, as Java counts them.
func deleteContentSize(f iceberg.DataFile) int64 {
	if datafile.IsDeletionVector(f) && f.ContentSizeInBytes != nil {
		return *f.ContentSizeInBytes
	}
	return f.FileSizeInBytes
}
