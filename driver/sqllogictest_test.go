package driver_test

import (
	"compress/gzip"
	"context"
	"database/sql"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
	"github.com/icesql/icesql/sqlexec/slt"
)

// SQLite's sqllogictest corpus, run as SQLite's harness runs it: a fresh
// warehouse per file, results compared by value or by MD5 hash, records
// chosen by skipif/onlyif with the engine name "icesql". The corpus is
// not in the repository: it is found in $ICESQL_SHARED/sqllogictest or in
// a shared/sqllogictest directory beside the repository (or beside one of
// its parents). By default a short set runs; -slt.full runs every file
// found, and -slt.corpus names another directory of .test files (the
// wider corpus: select4-5, random/, index/), -slt.max N picking N of its
// files evenly. Per file and in total the log gives statements/s,
// queries/s, the slowest query and the refusals by reason.
var (
	sltFull   = flag.Bool("slt.full", false, "run every sqllogictest file of the shared corpus")
	sltCorpus = flag.String("slt.corpus", "", "directory of further sqllogictest files to run (implies -slt.full over it)")
	sltMax    = flag.Int("slt.max", 0, "run at most this many files of -slt.corpus (0: all), picked evenly")
	sltShow   = flag.Int("slt.show", 20, "report at most this many failures per file")
)

// sltEngine is the name skipif/onlyif lines are matched against.
const sltEngine = "icesql"

// sltShortSet is what a plain go test runs: a few seconds (select1-3,
// a thousand queries each, run with -slt.full).
var sltShortSet = []string{
	"evidence/in1.test",
	"evidence/in2.test",
	"evidence/slt_lang_aggfunc.test",
	"evidence/slt_lang_createtrigger.test",
	"evidence/slt_lang_createview.test",
	"evidence/slt_lang_dropindex.test",
	"evidence/slt_lang_droptable.test",
	"evidence/slt_lang_droptrigger.test",
	"evidence/slt_lang_dropview.test",
	"evidence/slt_lang_reindex.test",
	"evidence/slt_lang_replace.test",
	"evidence/slt_lang_update.test",
}

// sltRefusals are errors icesql gives by design to SQL the corpus expects
// to succeed; each names why. Records refused so are counted apart, not
// as passed or failed.
var sltRefusals = []slt.Refusal{
	{Pattern: regexp.MustCompile(`not supported: Iceberg has no indexes`), Reason: "Iceberg tables have no indexes (CREATE INDEX, DROP INDEX, REINDEX)"},
	{Pattern: regexp.MustCompile(`not supported: Iceberg has no triggers`), Reason: "Iceberg tables have no triggers"},
	{Pattern: regexp.MustCompile(`not supported: Iceberg has no unique constraints`), Reason: "Iceberg has no unique constraints (a PRIMARY KEY becomes identifier fields, not enforced)"},
	{Pattern: regexp.MustCompile(`not supported: Iceberg has no enforced (keys|constraints)`), Reason: "REPLACE INTO and INSERT OR REPLACE/IGNORE need enforced keys; MERGE INTO is the Iceberg form"},
	{Pattern: regexp.MustCompile(`column \S+ must appear in GROUP BY or be used in an aggregate function`), Reason: "Spark refuses a column beside aggregates that is neither grouped nor aggregated, also under COALESCE or CASE that never reaches it (SQLite takes some row's value)"},
	{Pattern: regexp.MustCompile(`column "[^"]*" assigned twice`), Reason: "Spark refuses two assignments to one column in UPDATE (SQLite keeps the last)"},
}

// sltDivergences are differences of semantics by design, each checked by
// rerunning a wrong query in icesql's spelling of what SQLite means.
var sltDivergences = []slt.Divergence{
	{Rewrite: sltIntegerDivision, Reason: "Spark's / divides exactly (7 / 2 is 3.5) where SQLite's truncates between integers; the query with Spark's integer division DIV gives the expected result"},
}

// sltIntegerDivision writes each / outside quotes as DIV (ok false when
// there is none, or a comment could hide one).
func sltIntegerDivision(q string) (string, bool) {
	if strings.Contains(q, "/*") || strings.Contains(q, "--") {
		return "", false
	}
	var b strings.Builder
	var quote byte
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '/':
			b.WriteString(" DIV ")
			n++
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), n > 0
}

// sltCorpusDir finds shared/sqllogictest, or "" when it is absent.
func sltCorpusDir() string {
	if s := os.Getenv("ICESQL_SHARED"); s != "" {
		return filepath.Join(s, "sqllogictest")
	}
	dir, err := filepath.Abs("..")
	if err != nil {
		return ""
	}
	for {
		d := filepath.Join(filepath.Dir(dir), "shared", "sqllogictest")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// sltValueDB runs records on one connection of a fresh warehouse.
type sltValueDB struct{ c *sql.Conn }

func (d sltValueDB) Exec(q string) error {
	_, err := d.c.ExecContext(context.Background(), q)
	return err
}

func (d sltValueDB) QueryValues(q string) (int, [][]any, error) {
	rows, err := d.c.QueryContext(context.Background(), q)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, nil, err
	}
	var out [][]any
	for rows.Next() {
		vals, err := sqltest.ScanRow(rows, len(cols))
		if err != nil {
			return 0, nil, err
		}
		out = append(out, vals)
	}
	return len(cols), out, rows.Err()
}

func sltFiles(t *testing.T, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".test") || strings.HasSuffix(p, ".test.gz")) {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// sltParseFile reads one script, gzip-compressed when its name ends in .gz
// (the wider corpus sample in testdata/sqllogictest is kept so).
func sltParseFile(path string) ([]slt.ScriptRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		r = zr
	}
	return slt.ParseScript(r)
}

// TestSQLiteLogic runs SQLite's sqllogictest files through the driver and
// fails on any wrong answer or error that is not a listed refusal.
func TestSQLiteLogic(t *testing.T) {
	type source struct{ dir, file string }
	var todo []source
	if *sltCorpus != "" {
		files := sltFiles(t, *sltCorpus)
		if *sltMax > 0 && len(files) > *sltMax {
			step := float64(len(files)) / float64(*sltMax)
			var picked []string
			for i := 0; i < *sltMax; i++ {
				picked = append(picked, files[int(float64(i)*step)])
			}
			files = picked
		}
		for _, f := range files {
			todo = append(todo, source{*sltCorpus, f})
		}
	} else {
		dir := sltCorpusDir()
		if dir == "" {
			t.Skip("sqllogictest corpus not found: set ICESQL_SHARED or put shared/sqllogictest beside the repository")
		}
		files := sltShortSet
		if *sltFull {
			files = sltFiles(t, dir)
		}
		for _, f := range files {
			todo = append(todo, source{dir, f})
		}
	}
	runner := &slt.ScriptRunner{Engine: sltEngine, Refusals: sltRefusals, Divergences: sltDivergences}
	var total slt.ScriptStats
	for _, src := range todo {
		t.Run(src.file, func(t *testing.T) {
			recs, err := sltParseFile(filepath.Join(src.dir, filepath.FromSlash(src.file)))
			if err != nil {
				t.Fatalf("%s: %v", src.file, err)
			}
			db := openDB(t, t.TempDir())
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			st, fails := runner.Run(sltValueDB{conn}, src.file, recs)
			total.Add(st)
			shown := 0
			for _, fl := range fails {
				if fl.Outcome == slt.Wrong || fl.Outcome == slt.Errored {
					if shown++; shown <= *sltShow {
						t.Errorf("%v", fl)
					}
				}
			}
			if shown > *sltShow {
				t.Errorf("... and %d more", shown-*sltShow)
			}
			t.Logf("%s: %v", src.file, st)
		})
	}
	t.Logf("total: %v", total)
	for reason, n := range total.RefusedBy {
		t.Logf("refused by design (%d): %s", n, reason)
	}
}
