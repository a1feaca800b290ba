package driver

import "database/sql/driver"

// result is the outcome of a statement without rows.
type result struct{ rowsAffected int64 }

var _ driver.Result = result{}

// LastInsertId is not supported: Iceberg tables have no auto-increment ids.
func (result) LastInsertId() (int64, error) { return 0, ErrNoLastInsertID }

func (r result) RowsAffected() (int64, error) { return r.rowsAffected, nil }
