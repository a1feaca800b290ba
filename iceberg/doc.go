// Package iceberg models the Apache Iceberg table format: types and schemas,
// partition specs and transforms, sort orders, table metadata, snapshots,
// data and manifest file descriptors, and the typed errors of the commit
// protocol. Values here are immutable; metadata changes through builders that
// record updates, so a commit is a list of requirements plus a list of updates.
//
// File formats live in sub-packages (manifest for Avro, parquetfile for data
// files), I/O in fileio, scan planning in scan and the commit protocol in table.
package iceberg
