package driver_test

import (
	"database/sql"
	"runtime"
	"slices"
	"testing"

	"github.com/icesql/icesql/sqlexec/exec"
)

// A GROUP BY on a string column, which the parallel aggregation groups by
// the Parquet dictionary's indexes, returns what grouping the same values
// through an expression (the general path) returns: over NULLs and empty
// strings, files and row groups with dictionaries of their own, a
// dictionary that falls back to PLAIN pages mid-chunk, position deletes,
// and under a memory_limit that makes the aggregation spill.
func TestGroupByDictionaryColumn(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the parallel plan
	dir, spill, roomy := newSpillFixture(t)
	execAll(t, roomy,
		"CREATE TABLE n (k BIGINT, s STRING) TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'icesql.write.parquet.row-group-row-limit'='3000', 'write.parquet.page-row-limit'='700', 'write.parquet.dict-size-bytes'='65536')",
		// low cardinality, NULLs and ''
		`INSERT INTO n SELECT a.x + 10*b.x + 100*c.x + 1000*e.x,
			CASE WHEN a.x = 3 THEN NULL WHEN a.x = 4 THEN '' ELSE concat('v', CAST(b.x % 4 AS STRING)) END
			FROM d a, d b, d c, d e`,
		// another file with other values, in another order
		`INSERT INTO n SELECT 20000 + a.x + 10*b.x + 100*c.x,
			CASE WHEN b.x = 1 THEN NULL ELSE concat('w', CAST(a.x AS STRING)) END
			FROM d a, d b, d c`,
		// a dictionary that passes 64 KiB after the first rows: PLAIN pages
		`INSERT INTO n SELECT 30000 + a.x + 10*b.x + 100*c.x + 1000*e.x,
			CASE WHEN a.x + 10*b.x + 100*c.x + 1000*e.x < 2000 THEN concat('v', CAST(a.x % 3 AS STRING))
			ELSE concat('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', CAST(a.x + 10*b.x + 100*c.x + 1000*e.x AS STRING)) END
			FROM d a, d b, d c, d e`,
		"DELETE FROM n WHERE k % 7 = 0 OR s = 'v1' AND k % 3 = 0",
	)
	tight := openDB(t, dir+"/lake?memory_limit=1MiB&spill_dir="+spill)
	fast := "SELECT s, count(*), sum(k), min(k) FROM n GROUP BY s"
	general := "SELECT s || '' AS s, count(*), sum(k), min(k) FROM n GROUP BY s || ''"
	want, _ := spillQueryRows(t, roomy, general, "")
	slices.Sort(want)
	if len(want) < 6000 {
		t.Fatalf("%d groups; the test proves little", len(want))
	}
	for _, tc := range []struct {
		name string
		db   *sql.DB
	}{{"roomy", roomy}, {"tight", tight}} {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			before, spilled := exec.DictionaryGroupBatches(), exec.AggregateSpillFiles()
			got, _ := spillQueryRows(t, tc.db, fast, "")
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%d groups, want %d; first %v, want %v", len(got), len(want), got[:min(5, len(got))], want[:5])
			}
			// Under the tight limit the aggregation may spill on its first
			// batch, and which batch comes first depends on the workers'
			// timing (a run of 60 saw one spill before any dictionary
			// batch), so only the roomy run must take the dictionary path.
			if name == "roomy" && exec.DictionaryGroupBatches() == before {
				t.Fatal("no batch was grouped by dictionary index")
			}
			if name == "tight" && exec.AggregateSpillFiles() == spilled {
				t.Fatal("nothing spilled")
			}
		})
	}
}

// A GROUP BY on a string column of a join's build side, which the build
// holds as a dictionary (the join gathers indexes, the group table maps
// each distinct value once), returns what grouping the same values
// through an expression returns: inner and left joins (unmatched rows
// group as NULL), NULLs and empty strings, a build side of several files
// with deletes, and under a memory_limit.
func TestGroupByJoinBuildDictionary(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the parallel plan
	dir, spill, roomy := newSpillFixture(t)
	execAll(t, roomy,
		"CREATE TABLE ev (k BIGINT, u BIGINT, amount DOUBLE)",
		"CREATE TABLE us (u BIGINT, country STRING) TBLPROPERTIES ('write.delete.mode'='merge-on-read')",
		`INSERT INTO ev SELECT a.x + 10*b.x + 100*c.x + 1000*e.x, (a.x + 10*b.x + 100*c.x + 1000*e.x) * 7 % 1300, a.x * 0.5
			FROM d a, d b, d c, d e`,
		`INSERT INTO us SELECT a.x + 10*b.x + 100*c.x,
			CASE WHEN a.x = 3 THEN NULL WHEN a.x = 4 THEN '' ELSE concat('c', CAST((a.x + 10*b.x) % 17 AS STRING)) END
			FROM d a, d b, d c`,
		`INSERT INTO us SELECT 1000 + a.x + 10*b.x, concat('d', CAST(a.x AS STRING)) FROM d a, d b`,
		"DELETE FROM us WHERE u % 11 = 0",
	)
	tight := openDB(t, dir+"/lake?memory_limit=1MiB&spill_dir="+spill)
	for _, join := range []string{"JOIN", "LEFT JOIN"} {
		fast := "SELECT s.country, count(*), sum(e.amount), min(e.k) FROM ev e " + join + " us s ON e.u = s.u GROUP BY s.country"
		general := "SELECT s.country || '' AS country, count(*), sum(e.amount), min(e.k) FROM ev e " + join + " us s ON e.u = s.u GROUP BY s.country || ''"
		want, _ := spillQueryRows(t, roomy, general, "")
		slices.Sort(want)
		if len(want) < 20 {
			t.Fatalf("%s: %d groups; the test proves little", join, len(want))
		}
		for _, tc := range []struct {
			name string
			db   *sql.DB
		}{{"roomy", roomy}, {"tight", tight}} {
			t.Run(join+" "+tc.name, func(t *testing.T) {
				before := exec.DictionaryGroupBatches()
				got, _ := spillQueryRows(t, tc.db, fast, "")
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%d groups, want %d; got %v, want %v", len(got), len(want), got, want)
				}
				if exec.DictionaryGroupBatches() == before {
					t.Fatal("no batch was grouped by dictionary index")
				}
			})
		}
	}
}
