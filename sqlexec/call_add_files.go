package sqlexec

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

// addFilesResult is add_files' output. changed_partition_count is NULL for
// format v2+ tables, as in Spark (snapshot id inheritance).
type addFilesResult struct {
	added             int64
	changedPartitions *int64
}

func (addFilesResult) Columns() []maintenance.Column {
	long := iceberg.LongType{}
	return []maintenance.Column{{Name: "added_files_count", Type: long}, {Name: "changed_partition_count", Type: long}}
}

func (r addFilesResult) Rows() [][]any {
	var changed any
	if r.changedPartitions != nil {
		changed = *r.changedPartitions
	}
	return [][]any{{r.added, changed}}
}

// callAddFiles imports the Parquet files under a directory, named
// `parquet`.`<directory>`, into the table without rewriting them. Columns
// map by field id, or by name through the table's name mapping (which is
// set from the current schema when files without ids are imported and the
// table has none, as Java does). A partitioned table needs the Hive layout
// <column>=<value>/ of its identity partition fields; partition_filter
// keeps the files of matching partitions. Files already in the table are
// refused unless check_duplicate_files is false.
func callAddFiles(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	const proc = "add_files"
	bad := argErrorf(proc)
	srcText, _ := a.str("source_table")
	parts, err := splitTableName(srcText)
	if err != nil || len(parts) != 2 {
		return nil, bad("source_table", "want `parquet`.`<directory>`, got %q (importing from catalog tables is not supported)", srcText)
	}
	if !strings.EqualFold(parts[0], "parquet") {
		return nil, bad("source_table", "file format %q is not supported (only parquet)", parts[0])
	}
	dir := parts[1]
	if strings.HasPrefix(dir, "file:") {
		if dir, err = fileio.LocalPath(dir); err != nil {
			return nil, bad("source_table", "%v", err)
		}
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, bad("source_table", "%q is not a readable directory", dir)
	}
	if p, ok := a["parallelism"].(int64); ok && p < 1 {
		return nil, bad("parallelism", "must be positive")
	}
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	meta := t.Metadata()
	spec := meta.CurrentSpec()
	schema := meta.CurrentSchema()
	filter, _ := a["partition_filter"].(map[string]string)
	partCols, err := identityPartitionColumns(spec, schema)
	if err != nil {
		return nil, bad("table", "%v", err)
	}
	for k := range filter {
		if !containsFold(partCols, k) {
			return nil, bad("partition_filter", "%q is not a partition column of the table (partition columns: %s)", k, strings.Join(partCols, ", "))
		}
	}
	checkDup := true
	if _, given := a["check_duplicate_files"]; given {
		checkDup = a.boolean("check_duplicate_files")
	}

	files, err := listImportFiles(dir)
	if err != nil {
		return nil, err
	}
	mapping, setMapping, err := importNameMapping(meta)
	if err != nil {
		return nil, err
	}
	var added []iceberg.DataFile
	partitions := map[string]bool{}
	for _, rel := range files {
		values, err := hivePartition(rel, partCols)
		if err != nil {
			return nil, bad("source_table", "%s: %v", rel, err)
		}
		if !partitionMatches(values, filter) {
			continue
		}
		tuple := make([]any, len(spec.Fields))
		for i, pf := range spec.Fields {
			src, _ := schema.FindFieldByID(pf.SourceID)
			if tuple[i], err = parsePartitionValue(src.Type, values[strings.ToLower(partCols[i])]); err != nil {
				return nil, bad("source_table", "%s: partition %s: %v", rel, partCols[i], err)
			}
		}
		path := filepath.Join(dir, rel)
		imp, err := inspectParquet(path, schema, mapping)
		if err != nil {
			return nil, err
		}
		uri, err := fileio.LocalFileLocation(path)
		if err != nil {
			return nil, err
		}
		df := iceberg.DataFile{Content: iceberg.ContentData, FilePath: uri, SpecID: spec.ID, Partition: tuple}
		imp.metrics.Apply(&df)
		added = append(added, df)
		partitions[iceberg.PartitionKey(spec.ID, tuple)] = true
	}
	if checkDup && len(added) > 0 {
		if err := checkNotInTable(ctx, s, meta, added); err != nil {
			return nil, err
		}
	}
	res := addFilesResult{added: int64(len(added))}
	if meta.FormatVersion() == 1 {
		n := int64(len(partitions))
		res.changedPartitions = &n
	}
	if len(added) == 0 {
		return res, nil
	}
	if setMapping != "" {
		if t, err = t.CommitUpdates(ctx, []iceberg.Update{iceberg.SetPropertiesUpdate{Updates: map[string]string{iceberg.PropDefaultNameMapping: setMapping}}}); err != nil {
			return nil, err
		}
	}
	u := t.NewAppend() // the files are not the table's to delete on failure
	for _, f := range added {
		u.AddDataFile(f)
	}
	if _, err := s.stage(ctx, u); err != nil {
		return nil, err
	}
	return res, nil
}

// identityPartitionColumns names the source columns of the spec's fields,
// which must all be identity (Hive directories hold column values).
func identityPartitionColumns(spec *iceberg.PartitionSpec, schema *iceberg.Schema) ([]string, error) {
	var cols []string
	for _, pf := range spec.Fields {
		if _, ok := pf.Transform.(iceberg.IdentityTransform); !ok {
			return nil, fmt.Errorf("add_files needs identity partitioning; partition field %q uses %s", pf.Name, pf.Transform)
		}
		src, ok := schema.FindFieldByID(pf.SourceID)
		if !ok {
			return nil, fmt.Errorf("partition field %q has no source column", pf.Name)
		}
		cols = append(cols, src.Name)
	}
	return cols, nil
}

// listImportFiles lists the data files under dir (relative, sorted),
// skipping hidden and metadata files (names starting with . or _), as
// Spark does.
func listImportFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// hivePartition reads the col=value directories of a relative path
// (keys lower-cased). A partitioned table needs exactly its partition
// columns as directories.
func hivePartition(rel string, partCols []string) (map[string]string, error) {
	dirs := strings.Split(filepath.ToSlash(filepath.Dir(rel)), "/")
	if len(dirs) == 1 && dirs[0] == "." {
		dirs = nil
	}
	values := map[string]string{}
	if len(partCols) == 0 {
		return values, nil
	}
	if len(dirs) != len(partCols) {
		return nil, fmt.Errorf("want the partition directories %s=<value>/, got %q", strings.Join(partCols, "=<value>/"), filepath.Dir(rel))
	}
	for i, d := range dirs {
		k, v, ok := strings.Cut(d, "=")
		if !ok || !strings.EqualFold(k, partCols[i]) {
			return nil, fmt.Errorf("directory %q is not %s=<value>", d, partCols[i])
		}
		values[strings.ToLower(k)] = v
	}
	return values, nil
}

func partitionMatches(values, filter map[string]string) bool {
	for k, want := range filter {
		if values[strings.ToLower(k)] != want {
			return false
		}
	}
	return true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// hiveDefaultPartition is the directory value Hive and Spark write for NULL.
const hiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// parsePartitionValue reads a Hive directory value as the column's type.
func parsePartitionValue(t iceberg.Type, text string) (any, error) {
	if text == hiveDefaultPartition {
		return nil, nil
	}
	var v any
	var err error
	switch t.(type) {
	case iceberg.StringType:
		v = text
	case iceberg.IntType:
		var n int64
		n, err = strconv.ParseInt(text, 10, 32)
		v = int32(n)
	case iceberg.LongType:
		v, err = strconv.ParseInt(text, 10, 64)
	case iceberg.BooleanType:
		v, err = strconv.ParseBool(text)
	case iceberg.DateType:
		var d time.Time
		d, err = time.Parse("2006-01-02", text)
		v = iceberg.Date(d.Unix() / 86400)
	default:
		return nil, fmt.Errorf("partition columns of type %s are not supported by add_files", t)
	}
	if err != nil {
		return nil, fmt.Errorf("%q is not a %s", text, t)
	}
	return v, nil
}

// importNameMapping is the mapping for files without field ids: the
// table's, else one from the current schema that the import then sets.
func importNameMapping(meta *iceberg.TableMetadata) (parquetfile.NameMapping, string, error) {
	raw, ok := meta.Properties()[iceberg.PropDefaultNameMapping]
	set := ""
	var nm iceberg.NameMapping
	if ok {
		var err error
		if nm, err = iceberg.ParseNameMapping([]byte(raw)); err != nil {
			return nil, "", fmt.Errorf("%w: %s: %w", iceberg.ErrInvalidMetadata, iceberg.PropDefaultNameMapping, err)
		}
	} else {
		nm = iceberg.MappingFromSchema(meta.CurrentSchema())
		b, err := json.Marshal(nm)
		if err != nil {
			return nil, "", err
		}
		set = string(b)
	}
	return func(path []string) (int, bool) { return nm.FindFieldID(path...) }, set, nil
}

// checkNotInTable refuses files the table already holds.
func checkNotInTable(ctx context.Context, s *Session, meta *iceberg.TableMetadata, files []iceberg.DataFile) error {
	cur := meta.CurrentSnapshot()
	if cur == nil {
		return nil
	}
	tasks, _, err := scan.Plan(ctx, opener(ctx, s.engine.env.IO), meta, cur.SnapshotID, nil, scan.Options{Cache: s.engine.manifests})
	if err != nil {
		return err
	}
	live := make(map[string]bool, len(tasks))
	for _, t := range tasks {
		live[t.File.FilePath] = true
	}
	var dup []string
	for _, f := range files {
		if live[f.FilePath] {
			dup = append(dup, f.FilePath)
		}
	}
	if len(dup) > 0 {
		return &ProcedureArgError{Procedure: "add_files", Argument: "source_table",
			Reason: fmt.Sprintf("%d file(s) are already in the table (first: %s); pass check_duplicate_files => false to add them again", len(dup), dup[0])}
	}
	return nil
}
