package dml

import (
	"context"
	"fmt"
	"github.com/icesql/icesql/iceberg/scan"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// BeforeCommit, when set, runs right before a statement commits (or
// stages) its changes, after every file is written. Tests use it to
// interleave a concurrent commit deterministically.
var BeforeCommit func(ctx context.Context, ident table.Identifier)

// Runner runs row-level statements for a session.
type Runner struct {
	// Load loads a table by reference (at its current metadata, or the
	// transaction's view).
	Load func(ctx context.Context, ref *parser.TableRef) (*table.Table, error)
	// Catalog resolves every table of the statement other than the target
	// (sources, subqueries).
	Catalog planner.Catalog
	// Txn, when set, receives the change with Stage instead of a commit.
	Txn *table.Txn
	// Isolation, when set, overrides the table's isolation level property
	// (a transaction's level).
	Isolation string
	// Manifests caches decoded manifests across statements (nil: none).
	Manifests *scan.ManifestCache
	// Prepare, when set, adjusts each update before it is committed or
	// staged (the session's write-audit-publish staging); an error
	// abandons the update.
	Prepare func(*table.SnapshotUpdate) error
}

// Kind is the statement kind, which picks the table properties for write
// mode and isolation level.
type Kind int

const (
	KindDelete Kind = iota
	KindUpdate
	KindMerge
)

func (k Kind) String() string {
	return [...]string{"DELETE", "UPDATE", "MERGE"}[k]
}

// Mode is how row changes are written.
type Mode int

const (
	CopyOnWrite Mode = iota
	MergeOnRead
)

// modeOf reads write.{delete,update,merge}.mode.
func modeOf(meta *iceberg.TableMetadata, k Kind) (Mode, error) {
	prop := [...]string{iceberg.PropDeleteMode, iceberg.PropUpdateMode, iceberg.PropMergeMode}[k]
	switch v := meta.Properties()[prop]; v {
	case "", iceberg.ModeCopyOnWrite:
		return CopyOnWrite, nil
	case iceberg.ModeMergeOnRead:
		return MergeOnRead, nil
	default:
		return 0, fmt.Errorf("%w: %s=%q (want %s or %s)", ErrBadProperty, prop, v, iceberg.ModeCopyOnWrite, iceberg.ModeMergeOnRead)
	}
}

// isolationOf reads write.{delete,update,merge}.isolation-level.
func isolationOf(meta *iceberg.TableMetadata, k Kind) (string, error) {
	prop := [...]string{iceberg.PropDeleteIsolationLevel, iceberg.PropUpdateIsolationLevel, iceberg.PropMergeIsolationLevel}[k]
	switch v := meta.Properties()[prop]; v {
	case "":
		return iceberg.DefaultIsolationLevel, nil
	case iceberg.IsolationSerializable, iceberg.IsolationSnapshot:
		return v, nil
	default:
		return "", fmt.Errorf("%w: %s=%q (want %s or %s)", ErrBadProperty, prop, v, iceberg.IsolationSerializable, iceberg.IsolationSnapshot)
	}
}

// targetMarker is the planner TableRef.Extra of the statement's target.
type targetMarker struct{}

// catalog resolves the target to its row-identity view and delegates the
// rest.
type catalog struct {
	target *targetTable
	rest   planner.Catalog
}

func (c *catalog) ResolveTable(ctx context.Context, ref planner.TableRef) (planner.Table, error) {
	if _, ok := ref.Extra.(*targetMarker); ok {
		return c.target, nil
	}
	if c.rest == nil {
		return nil, fmt.Errorf("%w: %s", planner.ErrUnknownTable, ref.Name)
	}
	return c.rest.ResolveTable(ctx, ref)
}

// bindOptions maps the target's table name node to the target marker and
// the statement's other table names to their parser references.
func bindOptions(targetName *ast.TableName, refs parser.RefMap) planner.BindOptions {
	marker := &targetMarker{}
	return planner.BindOptions{TableExtra: func(tn *ast.TableName) any {
		if tn == targetName {
			return marker
		}
		if r, ok := refs[tn]; ok {
			return r
		}
		return nil
	}}
}

// checkTargetRef refuses metadata tables and table versions.
func checkTargetRef(ref *parser.TableRef) error {
	if ref.MetadataTable != "" {
		return invalidf("cannot write to metadata table %s", ref.MetadataTable)
	}
	if ref.VersionAsOf != nil || ref.TimestampAsOf != nil || ref.Tag != "" {
		return invalidf("cannot write to a table version")
	}
	if ref.Branch != "" {
		return unsupported("row-level writes to branch %q", ref.Branch)
	}
	return nil
}
