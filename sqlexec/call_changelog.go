package sqlexec

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/datafile"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/scan"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/exec"
)

// changelogViewResult is create_changelog_view's output.
type changelogViewResult struct{ name string }

func (changelogViewResult) Columns() []maintenance.Column {
	return []maintenance.Column{{Name: "changelog_view", Type: iceberg.StringType{}}}
}

func (r changelogViewResult) Rows() [][]any { return [][]any{{r.name}} }

// callCreateChangelogView computes the changelog of a snapshot range and
// makes it readable under changelog_view (default <table>_changes): a
// session-temporary view, as Spark's, holding the source's columns plus
// _change_type, _change_ordinal and _commit_snapshot_id. Its rows are
// computed at the call (see tempView); a later call replaces it.
func callCreateChangelogView(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	const proc = "create_changelog_view"
	bad := argErrorf(proc)
	net := a.boolean("net_changes")
	idNames, hasIDs := a["identifier_columns"].([]string)
	updates := hasIDs
	if _, given := a["compute_updates"]; given {
		updates = a.boolean("compute_updates")
	}
	if updates && net {
		return nil, bad("net_changes", "net changes cannot be computed with update images (compute_updates)")
	}
	src, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	meta := src.Metadata()
	schema := meta.CurrentSchema()
	var idCols []int
	if updates {
		if !hasIDs {
			for _, id := range schema.IdentifierFieldIDs {
				if n, ok := schema.FindColumnName(id); ok {
					idNames = append(idNames, n)
				}
			}
		}
		if len(idNames) == 0 {
			return nil, bad("identifier_columns", "cannot compute updates: give identifier_columns or set the table's identifier fields")
		}
		if idCols, err = topLevelColumns(schema, idNames); err != nil {
			return nil, bad("identifier_columns", "%v", err)
		}
	}
	opts, _ := a["options"].(map[string]string)
	from, to, err := changelogRange(meta, opts)
	if err != nil {
		return nil, bad("options", "%v", err)
	}
	viewText, ok := a.str("changelog_view")
	if !ok {
		viewText = src.Ident().Name + "_changes"
	}
	viewName, err := changelogViewName(viewText)
	if err != nil {
		return nil, bad("changelog_view", "%v", err)
	}

	var tasks []scan.ChangelogTask
	if to != nil {
		tasks, err = scan.PlanChangelog(ctx, opener(ctx, src.IO()), meta, from, *to, scan.Options{Cache: s.engine.manifests})
		if err != nil {
			return nil, err
		}
	}
	batches, rows, err := readChangelog(ctx, src, tasks)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, b := range batches {
			b.rec.Release()
		}
	}()
	if updates {
		if rows, err = computeUpdates(rows, idCols, idNames); err != nil {
			return nil, err
		}
	} else {
		rows = removeCarryovers(rows, net)
	}
	view, err := changelogView(ctx, src, viewName, rows)
	if err != nil {
		return nil, err
	}
	s.setTempView(view)
	return changelogViewResult{name: viewName}, nil
}

// topLevelColumns resolves column names (case-insensitively) to their
// positions in the schema's top-level fields.
func topLevelColumns(schema *iceberg.Schema, names []string) ([]int, error) {
	fields := schema.Fields()
	out := make([]int, 0, len(names))
	for _, n := range names {
		n = strings.Trim(n, "`")
		i := -1
		for j, f := range fields {
			if strings.EqualFold(f.Name, n) {
				i = j
				break
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("unknown column %q (identifier columns are top-level columns)", n)
		}
		out = append(out, i)
	}
	return out, nil
}

// changelogRange reads the snapshot range options: start-snapshot-id and
// start-timestamp are exclusive, end-snapshot-id and end-timestamp
// inclusive (default main's head). Timestamps are epoch milliseconds. A nil
// end means the table has no snapshot in range.
func changelogRange(meta *iceberg.TableMetadata, opts map[string]string) (from, to *int64, err error) {
	nums := map[string]int64{}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "start-snapshot-id", "end-snapshot-id", "start-timestamp", "end-timestamp":
			n, perr := strconv.ParseInt(strings.TrimSpace(opts[k]), 10, 64)
			if perr != nil {
				return nil, nil, fmt.Errorf("option %s: %q is not a long", k, opts[k])
			}
			nums[k] = n
		default:
			return nil, nil, fmt.Errorf("unknown option %q (known: start-snapshot-id, end-snapshot-id, start-timestamp, end-timestamp)", k)
		}
	}
	_, hasStartID := nums["start-snapshot-id"]
	_, hasStartTS := nums["start-timestamp"]
	_, hasEndID := nums["end-snapshot-id"]
	_, hasEndTS := nums["end-timestamp"]
	if hasStartID && hasStartTS || hasEndID && hasEndTS {
		return nil, nil, fmt.Errorf("give a snapshot id or a timestamp for each end of the range, not both")
	}
	switch {
	case hasEndID:
		id := nums["end-snapshot-id"]
		if _, ok := meta.SnapshotByID(id); !ok {
			return nil, nil, fmt.Errorf("%w: end-snapshot-id %d", iceberg.ErrNoSuchSnapshot, id)
		}
		to = &id
	case hasEndTS:
		// The last snapshot of main's history committed at or before it.
		if cur := meta.CurrentSnapshot(); cur != nil {
			for s := range meta.Ancestors(cur.SnapshotID) {
				if s.TimestampMs <= nums["end-timestamp"] {
					id := s.SnapshotID
					to = &id
					break
				}
			}
		}
	default:
		if cur := meta.CurrentSnapshot(); cur != nil {
			id := cur.SnapshotID
			to = &id
		}
	}
	switch {
	case hasStartID:
		id := nums["start-snapshot-id"]
		if _, ok := meta.SnapshotByID(id); !ok {
			return nil, nil, fmt.Errorf("%w: start-snapshot-id %d", iceberg.ErrNoSuchSnapshot, id)
		}
		from = &id
	case hasStartTS && to != nil:
		for s := range meta.Ancestors(*to) {
			if s.TimestampMs <= nums["start-timestamp"] {
				id := s.SnapshotID
				from = &id
				break
			}
		}
	}
	if from != nil && to != nil && *from == *to {
		to = nil // an empty range
	}
	if from != nil && to != nil {
		if _, err := scan.ChangelogSnapshots(meta, from, *to); err != nil {
			return nil, nil, err
		}
	}
	return from, to, nil
}

// changelogViewName checks the changelog_view name: a temporary view's
// name is one part, as Spark requires.
func changelogViewName(text string) (string, error) {
	parts, err := splitTableName(text)
	if err != nil {
		return "", err
	}
	if len(parts) != 1 {
		return "", fmt.Errorf("%q: a temporary view's name has one part (no namespace)", text)
	}
	return parts[0], nil
}

// changelogView builds the temporary view of the changelog rows.
func changelogView(ctx context.Context, src *table.Table, name string, rows []changeRow) (*tempView, error) {
	base, err := arrowSchemaOf(src)
	if err != nil {
		return nil, err
	}
	fields := append(base.Fields(),
		arrow.Field{Name: "_change_type", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "_change_ordinal", Type: arrow.PrimitiveTypes.Int32},
		arrow.Field{Name: "_commit_snapshot_id", Type: arrow.PrimitiveTypes.Int64})
	schema := arrow.NewSchema(fields, nil)
	batches, err := changelogBatches(ctx, schema, rows)
	if err != nil {
		return nil, err
	}
	return &tempView{name: name, schema: schema, batches: batches}, nil
}

// changelogBatches builds the output batches: per source batch, the kept
// rows with their change columns.
func changelogBatches(ctx context.Context, schema *arrow.Schema, rows []changeRow) ([]arrow.RecordBatch, error) {
	var out []arrow.RecordBatch
	for start := 0; start < len(rows); {
		b := rows[start].batch
		end := start
		for end < len(rows) && rows[end].batch == b {
			end++
		}
		idx := make([]int32, 0, end-start)
		types := array.NewStringBuilder(memory.DefaultAllocator)
		ords := array.NewInt32Builder(memory.DefaultAllocator)
		snaps := array.NewInt64Builder(memory.DefaultAllocator)
		for _, r := range rows[start:end] {
			idx = append(idx, int32(r.row))
			types.Append(r.typ)
			ords.Append(int32(b.ordinal))
			snaps.Append(b.snapshotID)
		}
		data, err := datafile.TakeRows(ctx, b.rec, idx)
		if err != nil {
			exec.ReleaseAll(out)
			return nil, err
		}
		cols := append(append([]arrow.Array(nil), data.Columns()...), types.NewArray(), ords.NewArray(), snaps.NewArray())
		rec := array.NewRecordBatch(schema, cols, int64(len(idx)))
		for _, c := range cols[len(cols)-3:] {
			c.Release()
		}
		data.Release()
		types.Release()
		ords.Release()
		snaps.Release()
		out = append(out, rec)
		start = end
	}
	return out, nil
}
