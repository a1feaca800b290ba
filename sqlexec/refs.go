package sqlexec

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/parser"
)

// isRefAction reports whether an ALTER TABLE action creates or drops a
// branch or tag.
func isRefAction(a parser.AlterAction) bool {
	switch a.(type) {
	case parser.CreateRefAction, parser.DropRefAction:
		return true
	}
	return false
}

// alterRef runs ALTER TABLE t CREATE [OR REPLACE] | REPLACE BRANCH|TAG and
// DROP BRANCH|TAG. The caller (runWrite) has refused it inside a
// transaction.
func (s *Session) alterRef(ctx context.Context, st *parser.AlterTableStmt) (Result, error) {
	ref := st.Table
	if ref.MetadataTable != "" || ref.Branch != "" || ref.Tag != "" || ref.VersionAsOf != nil || ref.TimestampAsOf != nil {
		return Result{}, invalidf("ALTER TABLE %s: branches and tags belong to the table itself", ref)
	}
	id, err := s.ident(ref)
	if err != nil {
		return Result{}, err
	}
	t, err := table.Load(ctx, s.engine.env, id)
	if err != nil {
		return Result{}, err
	}
	stmt := "ALTER TABLE " + id.String() + " " + firstWords(st.Action.String())
	switch a := st.Action.(type) {
	case parser.CreateRefAction:
		if !a.Create {
			// REPLACE BRANCH|TAG without CREATE requires the ref to exist.
			if _, ok := t.Metadata().Ref(a.Name); !ok {
				return Result{}, &StatementError{Stmt: stmt, Err: &maintenance.RefError{Op: "replace " + refKind(a.Tag), Name: a.Name,
					Err: fmt.Errorf("%w (use CREATE OR REPLACE to create it)", iceberg.ErrNoSuchRef)}}
			}
		}
		opts := maintenance.RefOptions{
			SnapshotID:         a.AsOfVersion,
			Replace:            a.Replace,
			IfNotExists:        a.IfNotExists,
			RetainMs:           a.RetainMs,
			MinSnapshotsToKeep: a.MinSnapshotsToKeep,
			MaxSnapshotAgeMs:   a.MaxSnapshotAgeMs,
		}
		if _, err := maintenance.CreateRef(ctx, t, a.Name, a.Tag, opts); err != nil {
			return Result{}, &StatementError{Stmt: stmt, Err: err}
		}
	case parser.DropRefAction:
		if err := maintenance.DropRef(ctx, t, a.Name, a.Tag, a.IfExists); err != nil {
			return Result{}, &StatementError{Stmt: stmt, Err: err}
		}
	default:
		return Result{}, notSupported("ALTER TABLE ... %s", firstWords(st.Action.String()))
	}
	return Result{}, nil
}

func refKind(tag bool) string {
	if tag {
		return "tag"
	}
	return "branch"
}
