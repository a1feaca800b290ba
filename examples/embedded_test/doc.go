// Package embeddedtest shows how a Go project uses icesql inside its own
// tests: every test gets a fresh warehouse in t.TempDir(), so tests are
// hermetic, run in parallel and leave nothing behind.
package embeddedtest

import (
	"context"
	"database/sql"
)

// Orders is a tiny piece of application code under test: it stores and
// totals orders in an Iceberg table.
type Orders struct{ DB *sql.DB }

// Setup creates the orders table.
func (o Orders) Setup(ctx context.Context) error {
	_, err := o.DB.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS orders (
		id BIGINT NOT NULL, customer STRING NOT NULL, amount DECIMAL(10,2)) PARTITIONED BY (customer)`)
	return err
}

// Add records one order.
func (o Orders) Add(ctx context.Context, id int64, customer string, amount float64) error {
	_, err := o.DB.ExecContext(ctx, "INSERT INTO orders VALUES (?, ?, ?)", id, customer, amount)
	return err
}

// Total returns a customer's total, as text to keep the decimal exact.
func (o Orders) Total(ctx context.Context, customer string) (string, error) {
	var total sql.NullString
	err := o.DB.QueryRowContext(ctx, "SELECT sum(amount) FROM orders WHERE customer = ?", customer).Scan(&total)
	return total.String, err
}
