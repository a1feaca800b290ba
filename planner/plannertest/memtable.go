// Package plannertest is a TEST FIXTURE, not the product: an in-memory
// catalog that understands just enough CREATE TABLE / INSERT / DROP TABLE
// (through the TiDB AST) for SQL tests of the planner and executor.
package plannertest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/exec"
)

// Table is an in-memory table of record batches.
type Table struct {
	name    string
	schema  *arrow.Schema
	mu      sync.Mutex
	batches []arrow.RecordBatch
	// LastScan records the most recent request, for pushdown tests.
	LastScan planner.ScanRequest
}

// NewTable makes an empty table.
func NewTable(name string, schema *arrow.Schema) *Table { return &Table{name: name, schema: schema} }

func (t *Table) Name() string          { return t.name }
func (t *Table) Schema() *arrow.Schema { return t.schema }

// Append adds a batch (the table retains it).
func (t *Table) Append(b arrow.RecordBatch) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b.Retain()
	t.batches = append(t.batches, b)
}

// Release drops all data.
func (t *Table) Release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	exec.ReleaseAll(t.batches)
	t.batches = nil
}

// Scan projects the requested columns; filters are left to the planner.
func (t *Table) Scan(ctx context.Context, req planner.ScanRequest) (exec.RecordIterator, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.LastScan = req
	fields := make([]arrow.Field, len(req.Columns))
	for i, c := range req.Columns {
		if c < 0 || c >= t.schema.NumFields() {
			return nil, fmt.Errorf("plannertest: column %d out of range", c)
		}
		fields[i] = t.schema.Field(c)
	}
	out := arrow.NewSchema(fields, nil)
	var bs []arrow.RecordBatch
	for _, b := range t.batches {
		cols := make([]arrow.Array, len(req.Columns))
		for i, c := range req.Columns {
			cols[i] = b.Column(c)
		}
		bs = append(bs, newBatch(out, cols, b.NumRows()))
	}
	return &exec.Values{Out: out, Batches: bs}, nil
}

// ExplainScan reports the request, so EXPLAIN shows pushdown.
func (t *Table) ExplainScan(_ context.Context, req planner.ScanRequest) (string, error) {
	return fmt.Sprintf("batches=%d filters=%d", len(t.batches), len(req.Filters)), nil
}

// Catalog is a map of tables by lower-cased name.
type Catalog struct {
	mu     sync.Mutex
	tables map[string]*Table
}

// NewCatalog makes an empty catalog.
func NewCatalog() *Catalog { return &Catalog{tables: map[string]*Table{}} }

// ResolveTable implements planner.Catalog.
func (c *Catalog) ResolveTable(_ context.Context, ref planner.TableRef) (planner.Table, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.tables[strings.ToLower(ref.Name)]
	if !ok {
		return nil, &planner.UnknownTableError{Name: ref.Name}
	}
	return t, nil
}

// Add registers a table.
func (c *Catalog) Add(t *Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables[strings.ToLower(t.name)] = t
}

// Close releases every table's data.
func (c *Catalog) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.tables {
		t.Release()
	}
}
