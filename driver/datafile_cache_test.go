package driver_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestDataFileCacheDSN: by default small data files stay in memory once
// read, so a query repeated finds them even if storage lost them (data
// files never change); data_file_cache=0 reads storage every time.
func TestDataFileCacheDSN(t *testing.T) {
	for _, tc := range []struct {
		option   string
		survives bool
	}{{"", true}, {"?data_file_cache=1MiB", true}, {"?data_file_cache=0", false}} {
		t.Run(tc.option, func(t *testing.T) {
			db := openDB(t, t.TempDir()+tc.option)
			mustExec(t, db, "CREATE TABLE t (id BIGINT)")
			mustExec(t, db, "INSERT INTO t VALUES (1), (2)")
			if got := queryInt(t, db, "SELECT sum(id) FROM t"); got != 3 {
				t.Fatalf("sum %d, want 3", got)
			}
			file := queryStrings(t, db, "SELECT file_path FROM t.files")[0]
			if err := os.Remove(strings.TrimPrefix(file, "file://")); err != nil {
				t.Fatal(err)
			}
			var sum int64
			err := db.QueryRow("SELECT sum(id) FROM t").Scan(&sum)
			switch {
			case tc.survives && (err != nil || sum != 3):
				t.Fatalf("the cached file: sum %d, %v", sum, err)
			case !tc.survives && !errors.Is(err, iceberg.ErrNotFound):
				t.Fatalf("without a cache a removed file read as %d, %v; want iceberg.ErrNotFound", sum, err)
			}
		})
	}
}
