package main

import "os"

func Example() {
	dir, err := os.MkdirTemp("", "concurrent-writers-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir, false); err != nil {
		panic(err)
	}
	// Output:
	// default retries: errors=0 rows=13 snapshots=13 writer a=6 writer b=6 linear history=true
	// num-retries=0: every failure is ErrCommitFailed=true, rows = successful inserts=true, snapshots = rows=true, linear history=true
}
