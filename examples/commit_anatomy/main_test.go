package main

import "os"

func Example() {
	dir, err := os.MkdirTemp("", "commit-anatomy-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		panic(err)
	}
	// Output:
	// after CREATE:   metadata/ 1 files, data/ 0 files
	// after append 1: metadata/ 4 files, data/ 1 files
	// after append 2: metadata/ 7 files, data/ 2 files
	// after append 3: metadata/ 10 files, data/ 3 files
	//
	// snapshot summaries:
	//   append: added-data-files=1 added-records=3 total-records=3 total-data-files=1
	//   append: added-data-files=1 added-records=3 total-records=6 total-data-files=2
	//   append: added-data-files=1 added-records=3 total-records=9 total-data-files=3
	//
	// manifests of the current snapshot:
	//   added=1 existing=0 deleted=0
	//   added=1 existing=0 deleted=0
	//   added=1 existing=0 deleted=0
	//
	// one watched commit:
	//   report: operation=append attempts=1 added-data-files=1 added-records=1 sequence-number=4
	//   metadata_log_entries: 5 (one per metadata.json: CREATE plus four commits)
	//
	// retry properties:
	//   commit.retry.min-wait-ms = 50
	//   commit.retry.num-retries = 10
}
