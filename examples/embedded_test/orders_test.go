package embeddedtest

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	_ "github.com/icesql/icesql/driver"
	"github.com/icesql/icesql/iceberg"
)

// openTestDB opens a fresh warehouse for one test.
func openTestDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("iceberg", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOrdersTotal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := Orders{DB: openTestDB(t)}
	if err := o.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	for i, amount := range []float64{10.25, 4.75, 100} {
		customer := "ada"
		if i == 2 {
			customer = "bob"
		}
		if err := o.Add(ctx, int64(i), customer, amount); err != nil {
			t.Fatal(err)
		}
	}
	got, err := o.Total(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if got != "15.00" {
		t.Fatalf("total = %q, want 15.00", got)
	}
}

func TestUnknownTableIsTyped(t *testing.T) {
	t.Parallel()
	_, err := openTestDB(t).Exec("INSERT INTO nope VALUES (1)")
	if !errors.Is(err, iceberg.ErrNoSuchTable) {
		t.Fatalf("got %v, want iceberg.ErrNoSuchTable", err)
	}
}
