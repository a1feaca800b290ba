package sqlexec

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
	"github.com/icesql/icesql/sqlexec/pushdown"
)

func callRewriteDataFiles(ctx context.Context, s *Session, a callArgs) (maintenance.Result, error) {
	const proc = "rewrite_data_files"
	bad := argErrorf(proc)
	t, err := s.callTable(ctx, a)
	if err != nil {
		return nil, err
	}
	opts := maintenance.RewriteOptions{CaseSensitive: true}
	if st, ok := a.str("strategy"); ok {
		opts.Strategy = maintenance.RewriteStrategy(strings.ToLower(st))
	}
	if so, ok := a.str("sort_order"); ok {
		if opts.SortOrder, err = parseSortOrder(t.Schema(), so); err != nil {
			return nil, bad("sort_order", "%v", err)
		}
	}
	if m, ok := a["options"].(map[string]string); ok {
		if err := applyRewriteOptions(&opts, m); err != nil {
			return nil, bad("options", "%v", err)
		}
	}
	if w, ok := a.str("where"); ok {
		if opts.Where, err = s.whereFilter(ctx, t.Ident(), w); err != nil {
			return nil, bad("where", "%v", err)
		}
	}
	return maintenance.RewriteDataFiles(ctx, t, opts)
}

// rewriteOptionsUnsupported are Spark rewrite options this engine does not
// implement; giving one is an error rather than a silent difference.
var rewriteOptionsUnsupported = map[string]bool{
	"partial-progress.enabled": true, "partial-progress.max-commits": true,
	"partial-progress.max-failed-commits": true, "use-starting-sequence-number": true,
	"delete-ratio-threshold": true, "output-spec-id": true, "remove-dangling-deletes": true,
	"max-files-to-rewrite": true, "compression-factor": true, "shuffle-partitions-per-file": true,
	"var-length-contribution": true, "max-output-size": true,
}

// rewriteOptionsIgnored only tune Spark's job scheduling.
var rewriteOptionsIgnored = map[string]bool{
	"max-concurrent-file-group-rewrites": true, "rewrite-job-order": true, "max-file-group-size-bytes": true,
}

// applyRewriteOptions reads rewrite_data_files' options map.
func applyRewriteOptions(o *maintenance.RewriteOptions, m map[string]string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic first error
	for _, k := range keys {
		v := strings.TrimSpace(m[k])
		size := func(dst *int64) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return fmt.Errorf("option %s: %q is not a positive integer", k, m[k])
			}
			*dst = n
			return nil
		}
		count := func(dst *int) error {
			var n int64
			if err := size(&n); err != nil {
				return err
			}
			if n > 1<<31-1 {
				return fmt.Errorf("option %s: %d is too large", k, n)
			}
			*dst = int(n)
			return nil
		}
		var err error
		switch k {
		case "target-file-size-bytes":
			err = size(&o.TargetFileSizeBytes)
		case "min-file-size-bytes":
			err = size(&o.MinFileSizeBytes)
		case "max-file-size-bytes":
			err = size(&o.MaxFileSizeBytes)
		case "min-input-files":
			err = count(&o.MinInputFiles)
		case "delete-file-threshold":
			err = count(&o.DeleteFileThreshold)
		case "rewrite-all":
			b, perr := strconv.ParseBool(v)
			if perr != nil {
				err = fmt.Errorf("option %s: %q is not true or false", k, m[k])
			}
			o.RewriteAll = b
		default:
			switch {
			case rewriteOptionsIgnored[k]:
			case rewriteOptionsUnsupported[k]:
				err = fmt.Errorf("option %s is not supported by this engine", k)
			default:
				err = fmt.Errorf("unknown option %q", k)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// parseSortOrder reads Spark's sort_order text: comma-separated
// "column [ASC|DESC] [NULLS FIRST|LAST]" terms (nulls first for ascending
// and last for descending by default, as in Spark).
func parseSortOrder(schema *iceberg.Schema, text string) (*iceberg.SortOrder, error) {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(text)), "zorder") {
		return nil, fmt.Errorf("zorder is not supported by this engine")
	}
	order := &iceberg.SortOrder{OrderID: 1}
	for _, term := range strings.Split(text, ",") {
		w := strings.Fields(term)
		if len(w) == 0 {
			return nil, fmt.Errorf("empty term in %q", text)
		}
		f, ok := schema.FindFieldByName(w[0])
		if !ok {
			if f, ok = schema.FindFieldByNameCaseInsensitive(w[0]); !ok {
				return nil, fmt.Errorf("unknown column %q (sort terms are column names)", w[0])
			}
		}
		sf := iceberg.SortField{SourceID: f.ID, Transform: iceberg.IdentityTransform{}, Direction: iceberg.SortAsc, NullOrder: iceberg.NullsFirst}
		rest := w[1:]
		if len(rest) > 0 {
			switch strings.ToUpper(rest[0]) {
			case "ASC":
				rest = rest[1:]
			case "DESC":
				sf.Direction, sf.NullOrder = iceberg.SortDesc, iceberg.NullsLast
				rest = rest[1:]
			}
		}
		if len(rest) == 2 && strings.EqualFold(rest[0], "NULLS") {
			switch strings.ToUpper(rest[1]) {
			case "FIRST":
				sf.NullOrder = iceberg.NullsFirst
				rest = nil
			case "LAST":
				sf.NullOrder = iceberg.NullsLast
				rest = nil
			}
		}
		if len(rest) > 0 {
			return nil, fmt.Errorf("cannot read sort term %q (want column [ASC|DESC] [NULLS FIRST|LAST])", strings.TrimSpace(term))
		}
		order.Fields = append(order.Fields, sf)
	}
	return order, nil
}

// whereFilter converts rewrite_data_files' where text to an Iceberg
// filter by planning SELECT * FROM t WHERE <text>: every conjunct must be
// pushed to the scan and convert exactly, as Spark requires of where.
func (s *Session) whereFilter(ctx context.Context, id table.Identifier, where string) (expr.Expr, error) {
	parts := append(append([]string(nil), id.Namespace...), id.Name)
	st, err := parser.ParseOne("SELECT * FROM " + parser.QuoteName(parts) + " WHERE " + where)
	if err != nil {
		return nil, fmt.Errorf("cannot parse %q: %w", where, err)
	}
	w, ok := st.(*parser.TiDBStmt)
	var sel *ast.SelectStmt
	if ok {
		sel, ok = w.Node.(*ast.SelectStmt)
	}
	if !ok || sel.Where == nil || sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil || sel.Limit != nil || len(w.Refs) != 1 {
		return nil, fmt.Errorf("%q is not a single filter expression", where)
	}
	q, err := s.bindQuery(ctx, sel, w.Refs)
	if err != nil {
		return nil, err
	}
	f, ok := exactScanFilter(q.plan)
	if !ok {
		return nil, fmt.Errorf("%q cannot be converted to an Iceberg filter (compare columns with constants)", where)
	}
	return f, nil
}

// exactScanFilter finds the one Iceberg scan of an optimized
// SELECT * ... WHERE plan and converts its pushed filters exactly; a filter
// left above the scan, another scan, or a filter that does not convert
// gives false.
func exactScanFilter(p planner.Plan) (expr.Expr, bool) {
	var scans []*planner.Scan
	ok := true
	var walk func(p planner.Plan)
	walk = func(p planner.Plan) {
		switch n := p.(type) {
		case *planner.Filter:
			ok = false
		case *planner.Scan:
			scans = append(scans, n)
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(p)
	if !ok || len(scans) != 1 {
		return nil, false
	}
	it, isIceberg := scans[0].Table.(*icebergTable)
	if !isIceberg {
		return nil, false
	}
	return pushdown.Exact(it.arrow, scans[0].Filters)
}
