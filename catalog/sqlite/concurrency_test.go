package sqlite

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// commitWithRetry installs a fresh location in a refresh-and-retry loop, as
// the table layer will, and returns the (expected, new) pair that won.
func commitWithRetry(ctx context.Context, c *Catalog, id Identifier, newLoc string) ([2]string, error) {
	for {
		rec, err := c.LoadTable(ctx, id)
		if err != nil {
			return [2]string{}, err
		}
		err = c.CommitTable(ctx, id, rec.MetadataLocation, newLoc)
		if err == nil {
			return [2]string{rec.MetadataLocation, newLoc}, nil
		}
		if !errors.Is(err, iceberg.ErrCommitFailed) {
			return [2]string{}, err
		}
	}
}

// verifyChain checks that the winning swaps form one unbroken chain from
// start to the table's final location: no swap was lost or applied twice.
func verifyChain(t *testing.T, start, final string, swaps [][2]string) {
	t.Helper()
	next := map[string]string{}
	for _, s := range swaps {
		if prev, dup := next[s[0]]; dup {
			t.Fatalf("two commits won from %s: %s and %s", s[0], prev, s[1])
		}
		next[s[0]] = s[1]
	}
	loc, steps := start, 0
	for {
		n, ok := next[loc]
		if !ok {
			break
		}
		loc = n
		steps++
	}
	if steps != len(swaps) || loc != final {
		t.Fatalf("chain from %s has %d of %d swaps and ends at %s; table is at %s", start, steps, len(swaps), loc, final)
	}
}

func TestConcurrentCASOneWinner(t *testing.T) {
	ctx := context.Background()
	c, _ := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "m0")
	const writers = 16
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.CommitTable(ctx, id, "m0", fmt.Sprintf("w%d", i))
		}()
	}
	wg.Wait()
	winners := 0
	for i, err := range errs {
		switch {
		case err == nil:
			winners++
		case !errors.Is(err, iceberg.ErrCommitFailed):
			t.Fatalf("writer %d: %v (want success or ErrCommitFailed)", i, err)
		}
	}
	if winners != 1 {
		t.Fatalf("%d winners from one expected location, want 1", winners)
	}
}

func TestConcurrentCommitsNoLostUpdates(t *testing.T) {
	ctx := context.Background()
	c, path := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "start")
	// Two Catalog values on one file: contention both inside a pool and
	// between connections.
	c2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	const writers, perWriter = 8, 15
	var mu sync.Mutex
	var swaps [][2]string
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		cat := c
		if w%2 == 1 {
			cat = c2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				s, err := commitWithRetry(ctx, cat, id, fmt.Sprintf("g%d-%d", w, i))
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				swaps = append(swaps, s)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rec, err := c.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	verifyChain(t, "start", rec.MetadataLocation, swaps)
}

const helperEnv = "ICESQL_SQLITE_CATALOG_HELPER"

// TestHelperProcess is run by TestMultiProcessCommits in child processes:
// it commits to the shared catalog and prints each winning swap.
func TestHelperProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("helper process only")
	}
	// spec: path|tag|commits
	parts := strings.SplitN(spec, "|", 3)
	n, err := strconv.Atoi(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := Open(ctx, parts[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	id := Identifier{Namespace: []string{"db"}, Name: "t"}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i := range n {
		s, err := commitWithRetry(ctx, c, id, fmt.Sprintf("%s-%d", parts[1], i))
		if err != nil {
			fmt.Fprintf(out, "ERROR %v\n", err)
			return
		}
		fmt.Fprintf(out, "SWAP %s %s\n", s[0], s[1])
	}
}

func TestMultiProcessCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	ctx := context.Background()
	c, path := openTest(t, Options{})
	mustCreateNamespace(t, c, "db")
	id := mustCreateTable(t, c, "db.t", "start")
	const procs, perProc = 3, 40
	outputs := make([][]byte, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|p%d|%d", helperEnv, path, p, perProc))
			outputs[p], errs[p] = cmd.CombinedOutput()
		}()
	}
	// This process commits too.
	var local [][2]string
	for i := range perProc {
		s, err := commitWithRetry(ctx, c, id, fmt.Sprintf("parent-%d", i))
		if err != nil {
			t.Errorf("parent commit: %v", err)
			break
		}
		local = append(local, s)
	}
	wg.Wait()
	swaps := local
	for p := range procs {
		if errs[p] != nil {
			t.Fatalf("helper %d: %v\n%s", p, errs[p], outputs[p])
		}
		for _, line := range strings.Split(string(outputs[p]), "\n") {
			switch f := strings.Fields(line); {
			case len(f) == 3 && f[0] == "SWAP":
				swaps = append(swaps, [2]string{f[1], f[2]})
			case len(f) > 0 && f[0] == "ERROR":
				t.Fatalf("helper %d: %s", p, line)
			}
		}
	}
	if want := (procs + 1) * perProc; len(swaps) != want {
		t.Fatalf("%d swaps reported, want %d", len(swaps), want)
	}
	rec, err := c.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	verifyChain(t, "start", rec.MetadataLocation, swaps)
}

func TestConcurrentOpenOfFreshFile(t *testing.T) {
	ctx := context.Background()
	for round := range 3 {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("fresh%d.db", round))
		const openers = 8
		errs := make([]error, openers)
		var wg sync.WaitGroup
		for i := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := Open(ctx, path, Options{})
				if err == nil {
					err = c.CreateNamespace(ctx, []string{fmt.Sprintf("ns%d", i)}, nil)
					c.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d opener %d: %v", round, i, err)
			}
		}
	}
}
