package driver_test

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/pgtest"
)

// maxRoundTripsPerInsert bounds the catalog round trips of one
// autocommit single-row INSERT on a Postgres catalog: one read of the
// table's pointer, and the compare-and-swap alone (no lock, no read back).
const maxRoundTripsPerInsert = 2

// TestPostgresCommitRoundTrips counts, on the wire to a real Postgres,
// the round trips of an INSERT: commit latency on Postgres is round
// trips, so they are held to the minimum.
func TestPostgresCommitRoundTrips(t *testing.T) {
	uri, wire := pgtest.CountRoundTrips(t, pgtest.Database(t))
	db := openDB(t, filepath.Join(t.TempDir(), "lake")+"?catalog_uri="+url.QueryEscape(uri))
	mustExec(t, db, "CREATE TABLE t (id BIGINT)")
	mustExec(t, db, "INSERT INTO t VALUES (0)") // connections and prepared statements warm
	const inserts = 5
	trips, seen := wire.RoundTrips(), len(wire.Statements())
	for i := 1; i <= inserts; i++ {
		mustExec(t, db, "INSERT INTO t VALUES (?)", i)
	}
	per := float64(wire.RoundTrips()-trips) / inserts
	stmts := wire.Statements()[seen:]
	t.Logf("%.1f round trips per INSERT: %s", per, strings.Join(stmts, "; "))
	if per > maxRoundTripsPerInsert {
		t.Fatalf("%.1f round trips per INSERT, want at most %d:\n%s", per, maxRoundTripsPerInsert, strings.Join(stmts, "\n"))
	}
	if got := queryInt(t, db, "SELECT count(*) FROM t"); got != inserts+1 {
		t.Fatalf("count %d", got)
	}
}
