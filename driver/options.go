package driver

import (
	"time"

	"github.com/icesql/icesql/sqlexec"
)

// QueryOption is a per-query option passed among a query's arguments; it
// is not a placeholder value:
//
//	db.Query("SELECT * FROM t WHERE id = ?", 7, driver.SnapshotID(id))
//
// Options choose the snapshot every table of the query reads when the SQL
// names no version itself; statements that write refuse them.
type QueryOption struct{ o sqlexec.ReadOptions }

// SnapshotID reads the tables at snapshot id.
func SnapshotID(id int64) QueryOption { return QueryOption{sqlexec.ReadOptions{SnapshotID: id}} }

// AsOf reads each table as it was at t.
func AsOf(t time.Time) QueryOption { return QueryOption{sqlexec.ReadOptions{AsOf: t}} }

// merge adds o's choices to r (the later option wins per field).
func (o QueryOption) merge(r sqlexec.ReadOptions) sqlexec.ReadOptions {
	if o.o.SnapshotID != 0 {
		r.SnapshotID = o.o.SnapshotID
	}
	if !o.o.AsOf.IsZero() {
		r.AsOf = o.o.AsOf
	}
	return r
}
