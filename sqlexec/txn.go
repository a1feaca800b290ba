package sqlexec

import (
	"context"
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
)

// TxOptions configure a session transaction.
type TxOptions struct {
	// Isolation overrides the tables' write.*.isolation-level for the
	// transaction's row-level writes and overwrites: iceberg.IsolationSerializable
	// or iceberg.IsolationSnapshot; "" keeps each table's property.
	Isolation string
	// ReadOnly refuses every write inside the transaction.
	ReadOnly bool
}

// sessionTxn is an open transaction of a session.
//
// Semantics: reads see every table as of one consistent read of the catalog
// (taken at the transaction's first table access) plus the transaction's
// own staged writes. Writes are staged and become visible together at
// Commit. DDL is refused. A statement that fails inside a transaction
// removes the files it wrote and leaves the transaction open and usable
// (unlike PostgreSQL, which aborts the whole transaction); the caller
// decides whether to COMMIT the statements that succeeded or ROLLBACK.
type sessionTxn struct {
	txn  *table.Txn
	opts TxOptions
}

// Begin opens a transaction on the session.
func (s *Session) Begin(ctx context.Context, opts TxOptions) error {
	if s.engine.isClosed() {
		return ErrClosed
	}
	if s.tx != nil {
		return ErrTxnOpen
	}
	switch opts.Isolation {
	case "", iceberg.IsolationSerializable, iceberg.IsolationSnapshot:
	default:
		return fmt.Errorf("%w: isolation level %q (want %s or %s)", ErrIsolationLevel, opts.Isolation, iceberg.IsolationSerializable, iceberg.IsolationSnapshot)
	}
	s.tx = &sessionTxn{txn: table.NewTxn(s.engine.env), opts: opts}
	return nil
}

// InTxn reports whether a transaction is open.
func (s *Session) InTxn() bool { return s.tx != nil }

// Txn is the open transaction, nil in autocommit mode. Row-level writers
// stage into it (see stage).
func (s *Session) Txn() *table.Txn {
	if s.tx == nil {
		return nil
	}
	return s.tx.txn
}

// TxIsolation is the isolation level the open transaction imposes on
// row-level writes, "" when the tables' properties apply.
func (s *Session) TxIsolation() string {
	if s.tx == nil {
		return ""
	}
	return s.tx.opts.Isolation
}

// Commit installs every staged write atomically. The transaction ends
// whatever the outcome; on failure the files it wrote are removed, except
// after iceberg.ErrCommitStateUnknown, when the commit may have landed.
func (s *Session) Commit(ctx context.Context) error {
	if s.tx == nil {
		return ErrNoTxn
	}
	x := s.tx.txn
	s.tx = nil
	return x.Commit(ctx)
}

// Rollback discards the staged writes and removes their files.
func (s *Session) Rollback(ctx context.Context) error {
	if s.tx == nil {
		return ErrNoTxn
	}
	x := s.tx.txn
	s.tx = nil
	return x.Rollback(ctx)
}

// Reset returns the session to its initial state for reuse by another
// client: the engine's default namespace. It refuses a session with an
// open transaction (ErrTxnOpen), which must be committed or rolled back.
func (s *Session) Reset() error {
	if s.tx != nil {
		return ErrTxnOpen
	}
	s.namespace = []string{s.engine.cfg.Namespace}
	return nil
}

// Close rolls back an open transaction. The session must not be used
// afterwards.
func (s *Session) Close(ctx context.Context) error {
	s.dropTempViews()
	if s.tx == nil {
		return nil
	}
	return s.Rollback(ctx)
}

// stage is how every writer of the session installs a snapshot update
// created from a table loaded with loadTable: in autocommit mode it
// commits at once; inside a transaction it stages the update, which
// becomes visible at COMMIT. It returns the table as the session now sees
// it.
func (s *Session) stage(ctx context.Context, u *table.SnapshotUpdate) (*table.Table, error) {
	if err := s.applyWAP(u); err != nil {
		u.Abandon(context.WithoutCancel(ctx))
		return nil, err
	}
	if s.tx == nil {
		t, err := u.Commit(ctx)
		if err == nil {
			s.engine.tables.put(t)
		}
		return t, err
	}
	return s.tx.txn.Stage(ctx, u)
}

// isolationFor is the isolation level a write validates with: the
// transaction's override, else def.
func (s *Session) isolationFor(def string) string {
	if iso := s.TxIsolation(); iso != "" {
		return iso
	}
	return def
}

// checkNotInTxn refuses DDL inside a transaction: catalog changes are not
// staged and would not roll back.
func (s *Session) checkNotInTxn(what string) error {
	if s.tx != nil {
		return fmt.Errorf("%w: %s", ErrDDLInTxn, what)
	}
	return nil
}

// txnStatement runs BEGIN / START TRANSACTION, COMMIT and ROLLBACK.
func (s *Session) txnStatement(ctx context.Context, n ast.StmtNode) (*Rows, error) {
	var err error
	switch x := n.(type) {
	case *ast.BeginStmt:
		switch {
		case x.Mode != "":
			return nil, notSupported("BEGIN %s", x.Mode)
		case x.AsOf != nil:
			return nil, notSupported("START TRANSACTION ... AS OF (use VERSION AS OF / TIMESTAMP AS OF on the tables)")
		}
		err = s.Begin(ctx, TxOptions{ReadOnly: x.ReadOnly})
	case *ast.CommitStmt:
		err = s.Commit(ctx)
	case *ast.RollbackStmt:
		if x.SavepointName != "" {
			return nil, notSupported("ROLLBACK TO SAVEPOINT")
		}
		err = s.Rollback(ctx)
	default:
		return nil, notSupported("transaction statement %T", n)
	}
	if err != nil {
		return nil, err
	}
	return emptyRows(), nil
}
