package main

import "os"

func Example() {
	dir, err := os.MkdirTemp("", "merge-isolation-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		panic(err)
	}
	// Output:
	// serializable: MERGE failed: *iceberg.ValidationError (1 conflicting file, isolation serializable)
	//   accounts: (1, 100.0) (2, 200.0) (3, 300.0) (4, 400.0)
	// snapshot: MERGE committed
	//   accounts: (1, 105.0) (2, 205.0) (3, 305.0) (4, 400.0)
}
