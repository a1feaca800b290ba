package main

import "os"

func Example() {
	dir, err := os.MkdirTemp("", "transfer-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		panic(err)
	}
	// Output:
	// before:                checking=580.00 savings=1020.00 total=1600.00
	// after transfer:        checking=430.00 savings=1170.00 total=1600.00
	// failed transfer rolled back: a NULL into savings.balance was refused
	// after failed transfer: checking=430.00 savings=1170.00 total=1600.00
	// snapshots: checking=2 savings=2 (one insert, one transfer each)
}
