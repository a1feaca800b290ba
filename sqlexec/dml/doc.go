// Package dml runs the row-level statements DELETE, UPDATE and MERGE INTO
// against one Iceberg table, in copy-on-write mode (affected data files are
// rewritten without the changed rows) or merge-on-read mode (position
// delete files mark the changed rows), and validates the commit against
// concurrent commits at the table's isolation level.
//
// Every statement becomes one query over the target table, which exposes
// two hidden columns identifying each row (its data file and position):
// the query's rows say which target rows go and which new rows come.
package dml
