package planner

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/sqlexec/exec"
)

// TableRef names a table as written in a query. Extra carries parser-side
// details (time travel, branch, metadata table) opaque to the planner.
type TableRef struct {
	Namespace []string
	Name      string
	Extra     any
}

// Catalog resolves table references; it returns an error wrapping
// ErrUnknownTable (or the catalog's own not-found sentinel) when absent.
type Catalog interface {
	ResolveTable(ctx context.Context, ref TableRef) (Table, error)
}

// Table is a readable relation.
type Table interface {
	Name() string
	// Schema gives column names, types and nullability.
	Schema() *arrow.Schema
	// Scan returns batches holding only req.Columns, in that order, and
	// applies at least the filters it reports handled in ScanStats.
	Scan(ctx context.Context, req ScanRequest) (exec.RecordIterator, error)
}

// ScanRequest is what the planner asks of a table.
type ScanRequest struct {
	// Columns are indexes into Table.Schema(), in output order.
	Columns []int
	// Filters are AND-ed predicates whose ColumnRefs index Table.Schema()
	// (not Columns). The table may use them to prune; the planner
	// re-applies every filter the table does not report as exact.
	Filters []Expr
	// Limit is a row count the scan may stop after (-1: none); only set
	// when no filter remains above the scan.
	Limit int64
	// Analysis is set only under EXPLAIN ANALYZE: a table that counts its
	// scan work (files pruned, bytes read) attaches its counters there.
	Analysis *ScanAnalysis
	// Dictionary, when set, has one entry per column of Columns: true
	// asks for that string column as dictionary<int32, string> arrays
	// (a table may ignore it; the consumer takes either form).
	Dictionary []bool
}

// Explainer is optionally implemented by Tables to describe pushdown
// (files planned and pruned, filters used) for EXPLAIN.
type Explainer interface {
	ExplainScan(ctx context.Context, req ScanRequest) (string, error)
}

// ExactFilterer is optionally implemented by Tables that apply some of the
// request's filters exactly; the planner then does not re-apply them.
type ExactFilterer interface {
	// ExactFilters returns, for each of req.Filters, whether the scan
	// applies it row by row.
	ExactFilters(req ScanRequest) []bool
}

// PartitionedTable is optionally implemented by Tables whose scans split
// into independent parts (such as file scan tasks) that parallel workers
// may read concurrently. Each part honours req like Scan does; together
// they return exactly Scan's rows.
type PartitionedTable interface {
	ScanPartitions(ctx context.Context, req ScanRequest) ([]exec.RecordIterator, error)
}
