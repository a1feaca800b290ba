package embeddedtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	_ "github.com/icesql/icesql/driver"
)

func ExampleOrders() {
	dir, _ := os.MkdirTemp("", "orders-") // in a test: t.TempDir()
	defer os.RemoveAll(dir)
	db, err := sql.Open("iceberg", dir)
	if err != nil {
		panic(err)
	}
	defer db.Close()
	ctx := context.Background()
	o := Orders{DB: db}
	if err := o.Setup(ctx); err != nil {
		panic(err)
	}
	o.Add(ctx, 1, "ada", 10.25)
	o.Add(ctx, 2, "ada", 4.75)
	total, _ := o.Total(ctx, "ada")
	fmt.Println("ada:", total)
	// Output: ada: 15.00
}
