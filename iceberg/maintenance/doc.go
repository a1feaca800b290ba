// Package maintenance implements Iceberg's table maintenance procedures at
// the format level: expiring snapshots, removing orphan files, compacting
// data files and manifests, moving branch heads (rollback, set current,
// cherry-pick, fast-forward) and creating or dropping branches and tags.
//
// Each procedure is a Go function that takes a loaded *table.Table and
// returns a typed result mirroring the columns of Spark's CALL
// system.<procedure>; every result also implements Result so a SQL layer
// can render it without knowing its type.
package maintenance
