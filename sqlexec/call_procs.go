package sqlexec

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/parser"
)

// procedures are the CALL system.<name> procedures with Spark's parameter
// names, order and types (docs/spark-procedures.md of Apache Iceberg).
// Parameters after Spark's are this engine's extensions.
var procedures map[string]*procedure

func init() {
	tableParam := procParam{name: "table", kind: argString, required: true}
	list := []*procedure{
		{name: "expire_snapshots", run: callExpireSnapshots, params: []procParam{
			tableParam,
			{name: "older_than", kind: argTimestamp},
			{name: "retain_last", kind: argInt},
			{name: "max_concurrent_deletes", kind: argInt},
			{name: "stream_results", kind: argBool}, // Spark driver memory only: no effect here
			{name: "snapshot_ids", kind: argLongArray},
			{name: "clean_expired_metadata", kind: argBool, unsupported: true},
			{name: "dry_run", kind: argBool},
		}},
		{name: "remove_orphan_files", run: callRemoveOrphanFiles, params: []procParam{
			tableParam,
			{name: "older_than", kind: argTimestamp},
			{name: "location", kind: argString},
			{name: "dry_run", kind: argBool},
			{name: "max_concurrent_deletes", kind: argInt},
			{name: "file_list_view", kind: argString, unsupported: true},
			{name: "equal_schemes", kind: argStringMap, unsupported: true},
			{name: "equal_authorities", kind: argStringMap, unsupported: true},
			{name: "prefix_mismatch_mode", kind: argString, unsupported: true},
			{name: "stream_results", kind: argBool},
		}},
		{name: "rewrite_data_files", run: callRewriteDataFiles, params: []procParam{
			tableParam,
			{name: "strategy", kind: argString},
			{name: "sort_order", kind: argString},
			{name: "options", kind: argStringMap},
			{name: "where", kind: argString},
		}},
		{name: "rewrite_manifests", run: callRewriteManifests, params: []procParam{
			tableParam,
			{name: "use_caching", kind: argBool}, // Spark caching only: no effect here
			{name: "spec_id", kind: argInt, unsupported: true},
			{name: "sort_by", kind: argStringArray, unsupported: true},
		}},
		{name: "rollback_to_snapshot", run: callRollbackToSnapshot, params: []procParam{
			tableParam,
			{name: "snapshot_id", kind: argLong, required: true},
		}},
		{name: "rollback_to_timestamp", run: callRollbackToTimestamp, params: []procParam{
			tableParam,
			{name: "timestamp", kind: argTimestamp, required: true},
		}},
		{name: "set_current_snapshot", run: callSetCurrentSnapshot, params: []procParam{
			tableParam,
			{name: "snapshot_id", kind: argLong},
			{name: "ref", kind: argString},
		}},
		{name: "cherrypick_snapshot", run: callCherrypickSnapshot, params: []procParam{
			tableParam,
			{name: "snapshot_id", kind: argLong, required: true},
		}},
		{name: "publish_changes", run: callPublishChanges, params: []procParam{
			tableParam,
			{name: "wap_id", kind: argString, required: true},
		}},
		{name: "fast_forward", run: callFastForward, params: []procParam{
			tableParam,
			{name: "branch", kind: argString, required: true},
			{name: "to", kind: argString, required: true},
		}},
		{name: "register_table", run: callRegisterTable, params: []procParam{
			tableParam,
			{name: "metadata_file", kind: argString, required: true},
		}},
		{name: "create_changelog_view", run: callCreateChangelogView, params: []procParam{
			tableParam,
			{name: "changelog_view", kind: argString},
			{name: "options", kind: argStringMap},
			{name: "compute_updates", kind: argBool},
			{name: "identifier_columns", kind: argStringArray},
			{name: "net_changes", kind: argBool},
		}},
		{name: "add_files", run: callAddFiles, params: []procParam{
			tableParam,
			{name: "source_table", kind: argString, required: true},
			{name: "partition_filter", kind: argStringMap},
			{name: "check_duplicate_files", kind: argBool},
			{name: "parallelism", kind: argInt}, // Spark's read threads: no effect here
		}},
		{name: "rewrite_position_delete_files", run: callRewritePositionDeleteFiles, params: []procParam{
			tableParam,
			{name: "options", kind: argStringMap},
			{name: "where", kind: argString},
		}},
		{name: "ancestors_of", run: callAncestorsOf, params: []procParam{
			tableParam,
			{name: "snapshot_id", kind: argLong},
		}},
	}
	procedures = make(map[string]*procedure, len(list))
	for _, p := range list {
		procedures[p.name] = p
	}
}

// callTable loads the table named by the procedure's table argument.
func (s *Session) callTable(ctx context.Context, args callArgs) (*table.Table, error) {
	id, err := s.callIdent(args)
	if err != nil {
		return nil, err
	}
	return table.Load(ctx, s.engine.env, id)
}

// callIdent resolves the table argument ('t', 'ns.t', 'catalog.ns.t',
// with `backquoted` parts) against the session namespace.
func (s *Session) callIdent(args callArgs) (table.Identifier, error) {
	text, _ := args.str("table")
	parts, err := splitTableName(text)
	if err != nil {
		return table.Identifier{}, &ProcedureArgError{Procedure: "", Argument: "table", Reason: err.Error()}
	}
	if len(parts) >= 3 && strings.EqualFold(parts[0], s.engine.catalogName()) {
		parts = parts[1:]
	}
	ref := &parser.TableRef{Parts: parts, Namespace: parts[:len(parts)-1], Table: parts[len(parts)-1]}
	return s.ident(ref)
}

// splitTableName splits a dotted, optionally backquoted, name.
func splitTableName(text string) ([]string, error) {
	var parts []string
	var cur strings.Builder
	quoted, afterQuote := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quoted && c == '`':
			if i+1 < len(text) && text[i+1] == '`' {
				cur.WriteByte('`')
				i++
				continue
			}
			quoted, afterQuote = false, true
		case quoted:
			cur.WriteByte(c)
		case c == '`' && cur.Len() == 0 && !afterQuote:
			quoted = true
		case c == '.':
			if cur.Len() == 0 {
				return nil, fmt.Errorf("table name %q has an empty part", text)
			}
			parts = append(parts, cur.String())
			cur.Reset()
			afterQuote = false
		case afterQuote || c == '`' || c == ' ' || c == '\t' || c == '\n':
			return nil, fmt.Errorf("table name %q is malformed at offset %d", text, i)
		default:
			cur.WriteByte(c)
		}
	}
	if quoted {
		return nil, fmt.Errorf("table name %q has an unclosed backquote", text)
	}
	if cur.Len() == 0 {
		return nil, fmt.Errorf("table name %q is empty or ends with a dot", text)
	}
	return append(parts, cur.String()), nil
}

func callExpireSnapshots(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	opts := maintenance.ExpireOptions{DryRun: a.boolean("dry_run")}
	opts.OlderThan, _ = a.timestamp("older_than")
	if n, ok := a.long("retain_last"); ok {
		if n < 1 {
			return nil, &ProcedureArgError{Procedure: "expire_snapshots", Argument: "retain_last", Reason: "must be at least 1"}
		}
		opts.RetainLast = int(n)
	}
	if n, ok := a.long("max_concurrent_deletes"); ok {
		if n < 1 {
			return nil, &ProcedureArgError{Procedure: "expire_snapshots", Argument: "max_concurrent_deletes", Reason: "must be positive"}
		}
		opts.MaxConcurrentDeletes = int(n)
	}
	opts.SnapshotIDs, _ = a["snapshot_ids"].([]int64)
	return maintenance.ExpireSnapshots(ctx, t, opts)
}

func callRemoveOrphanFiles(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	opts := maintenance.OrphanOptions{DryRun: a.boolean("dry_run")}
	opts.OlderThan, _ = a.timestamp("older_than")
	opts.Location, _ = a.str("location")
	if n, ok := a.long("max_concurrent_deletes"); ok {
		if n < 1 {
			return nil, &ProcedureArgError{Procedure: "remove_orphan_files", Argument: "max_concurrent_deletes", Reason: "must be positive"}
		}
		opts.MaxConcurrentDeletes = int(n)
	}
	if err := s.engine.checkOrphanRoot(ctx, t, opts.Location); err != nil {
		return nil, &ProcedureArgError{Procedure: "remove_orphan_files", Argument: "location", Reason: err.Error(), Err: err}
	}
	return maintenance.RemoveOrphanFiles(ctx, t, opts)
}

func callRewriteManifests(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	return maintenance.RewriteManifests(ctx, t)
}

func callRollbackToSnapshot(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	id, _ := a.long("snapshot_id")
	return maintenance.RollbackToSnapshot(ctx, t, id)
}

func callRollbackToTimestamp(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	ts, _ := a.timestamp("timestamp")
	return maintenance.RollbackToTimestamp(ctx, t, ts)
}

func callSetCurrentSnapshot(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	id, hasID := a.long("snapshot_id")
	ref, hasRef := a.str("ref")
	if hasID == hasRef {
		return nil, &ProcedureArgError{Procedure: "set_current_snapshot", Argument: "snapshot_id",
			Reason: "give exactly one of snapshot_id and ref"}
	}
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	var idp *int64
	if hasID {
		idp = &id
	}
	return maintenance.SetCurrentSnapshot(ctx, t, idp, ref)
}

func callCherrypickSnapshot(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	id, _ := a.long("snapshot_id")
	return maintenance.CherrypickSnapshot(ctx, t, id)
}

func callPublishChanges(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	id, _ := a.str("wap_id")
	return maintenance.PublishChanges(ctx, t, id)
}

func callFastForward(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	branch, _ := a.str("branch")
	to, _ := a.str("to")
	return maintenance.FastForward(ctx, t, branch, to)
}

// registerResult is register_table's output, as Spark reports it.
type registerResult struct {
	currentSnapshotID            int64
	totalRecords, totalDataFiles int64
}

func (registerResult) Columns() []maintenance.Column {
	long := iceberg.LongType{}
	return []maintenance.Column{{Name: "current_snapshot_id", Type: long},
		{Name: "total_records_count", Type: long}, {Name: "total_data_files_count", Type: long}}
}

func (r registerResult) Rows() [][]any {
	return [][]any{{r.currentSnapshotID, r.totalRecords, r.totalDataFiles}}
}

// callRegisterTable adds an existing table to the catalog after checking
// that metadata_file is a readable table metadata file.
func callRegisterTable(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	id, err := s.callIdent(a)
	if err != nil {
		return nil, err
	}
	if err := checkNewIdent(id); err != nil {
		return nil, err
	}
	loc, _ := a.str("metadata_file")
	if loc == "" {
		return nil, &ProcedureArgError{Procedure: "register_table", Argument: "metadata_file", Reason: "empty location"}
	}
	meta, err := table.ReadMetadata(ctx, s.engine.env.IO, loc)
	if err != nil {
		return nil, err
	}
	if err := s.engine.catalog.RegisterTable(ctx, id, loc); err != nil {
		return nil, err
	}
	var r registerResult
	if snap := meta.CurrentSnapshot(); snap != nil {
		r.currentSnapshotID = snap.SnapshotID
		r.totalRecords, _ = strconv.ParseInt(snap.Summary["total-records"], 10, 64)
		r.totalDataFiles, _ = strconv.ParseInt(snap.Summary["total-data-files"], 10, 64)
	}
	return r, nil
}
