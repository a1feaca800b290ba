package postgres

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// fence names the server session (backend) a swap was sent on, so that a
// lost reply can be resolved: once that session is gone it can no longer
// commit, and the pointers read afterwards are the outcome.
type fence struct {
	pid  uint32
	port int // the client's local TCP port, -1 for a Unix socket
}

func fenceOf(conn *pgxpool.Conn) fence {
	pc := conn.Conn().PgConn()
	f := fence{pid: pc.PID(), port: -1}
	if a, ok := pc.Conn().LocalAddr().(*net.TCPAddr); ok {
		f.port = a.Port
	}
	return f
}

// resolveLost finds out whether swaps whose reply was lost (cause) took
// effect. It ends the session that sent them, waits until the server has
// let it go, and reads the pointers back on another connection: all at
// New (or already moved on from New) is success, all at Expected is a
// commit that did not happen (iceberg.ErrCommitFailed, safe to retry);
// anything else, or a failure to find out, is iceberg.ErrCommitStateUnknown.
func (c *Catalog) resolveLost(ctx context.Context, f fence, swaps []catalog.TableCommit, k rowKind, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.resolve)
	defer cancel()
	unknown := func(why error) error {
		if why == nil {
			return fmt.Errorf("%w: connection lost after the swap was sent: %w", iceberg.ErrCommitStateUnknown, cause)
		}
		return fmt.Errorf("%w: connection lost after the swap was sent (%w), and resolving failed: %v",
			iceberg.ErrCommitStateUnknown, cause, why)
	}
	if err := c.endSession(ctx, f); err != nil {
		return unknown(err)
	}
	applied, untouched := 0, 0
	err := c.readTx(ctx, "resolve commit", "", func(tx pgx.Tx) error {
		for _, s := range swaps {
			rec, err := c.loadRow(ctx, tx, s.Ident, k)
			if err != nil {
				return err
			}
			switch {
			case rec.MetadataLocation == s.New || rec.PreviousMetadataLocation == s.New:
				applied++
			case rec.MetadataLocation == s.Expected:
				untouched++
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return unknown(err)
	case applied == len(swaps):
		return nil
	case untouched == len(swaps):
		return fmt.Errorf("%w: connection lost after the swap was sent (%w); the pointers are unchanged", iceberg.ErrCommitFailed, cause)
	}
	return unknown(nil)
}

// endSession terminates the server session f (if it still exists) and
// waits until it is gone.
func (c *Catalog) endSession(ctx context.Context, f fence) error {
	const match = "FROM pg_stat_activity WHERE pid = $1 AND (client_port = $2 OR ($2 = -1 AND client_port IS NULL))"
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		var alive bool
		if err := c.pool.QueryRow(ctx, "SELECT EXISTS(SELECT 1 "+match+")", int32(f.pid), f.port).Scan(&alive); err != nil {
			return err
		}
		if !alive {
			return nil
		}
		if _, err := c.pool.Exec(ctx, "SELECT pg_terminate_backend(pid) "+match, int32(f.pid), f.port); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}
