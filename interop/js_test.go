package interop

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icesql/icesql/catalog"
	restcat "github.com/icesql/icesql/catalog/rest"
	"github.com/icesql/icesql/server/rest"
)

// envRequireJS makes a missing node, npm or iceberg-js a failure instead
// of a skip (.ci/run sets it where node is installed).
const envRequireJS = "ICESQL_REQUIRE_JS"

func skipJS(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv(envRequireJS) != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// jsClient installs interop/js's locked packages (npm ci) when they are
// not there yet and returns the directory of check.mjs.
func jsClient(t *testing.T) string {
	t.Helper()
	_, nodeErr := osexec.LookPath("node")
	npm, npmErr := osexec.LookPath("npm")
	if nodeErr != nil || npmErr != nil {
		skipJS(t, "the iceberg-js check needs node and npm on PATH (node: %v, npm: %v)", nodeErr, npmErr)
	}
	dir, err := filepath.Abs("js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "iceberg-js", "package.json")); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := osexec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			skipJS(t, "iceberg-js could not be installed from the npm registry (npm ci in interop/js): %v\n%s", err, out)
		}
	}
	return dir
}

// jsReport is what check.mjs prints.
type jsReport struct {
	Endpoints              []string            `json:"endpoints"`
	Namespaces             []string            `json:"namespaces"`
	Children               map[string][]string `json:"children"`
	Tables                 map[string][]string `json:"tables"`
	NamespaceProperties    map[string]string   `json:"namespaceProperties"`
	NamespaceExists        bool                `json:"namespaceExists"`
	MissingNamespaceExists bool                `json:"missingNamespaceExists"`
	Events                 struct {
		FormatVersion     int               `json:"formatVersion"`
		TableUUID         string            `json:"tableUUID"`
		Location          string            `json:"location"`
		CurrentSnapshotID int64             `json:"currentSnapshotId"`
		Snapshots         int               `json:"snapshots"`
		SchemaFields      []string          `json:"schemaFields"`
		PartitionFields   []string          `json:"partitionFields"`
		Properties        map[string]string `json:"properties"`
	} `json:"events"`
	EventsMetadataLocation string            `json:"eventsMetadataLocation"`
	EventsRefsSnapshots    int               `json:"eventsRefsSnapshots"`
	TableExists            bool              `json:"tableExists"`
	MissingTableExists     bool              `json:"missingTableExists"`
	MissingTableError      string            `json:"missingTableError"`
	CreatedFormatVersion   int               `json:"createdFormatVersion"`
	CommitMetadataLocation string            `json:"commitMetadataLocation"`
	CommittedProperties    map[string]string `json:"committedProperties"`
	StaleCommitError       string            `json:"staleCommitError"`
	DroppedExists          bool              `json:"droppedExists"`
}

// TestRESTIcebergJS: iceberg-js, a TypeScript REST client from the npm
// registry, reads what icesql wrote through its REST server (namespaces,
// nested ones, paged listings, a table's metadata in full and with
// snapshots=refs, the error model of a missing table) and writes through
// it (a namespace, a table, a property commit, a refused stale commit, a
// purged drop), which icesql then reads and appends to: nothing
// Go-specific is needed on either side of the protocol.
func TestRESTIcebergJS(t *testing.T) {
	dir := jsClient(t)
	ctx := context.Background()
	srv := startRESTServer(t, rest.Options{})
	rc, err := restcat.Open(ctx, srv.url, restcat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if err := rc.CreateNamespace(ctx, []string{"db"}, map[string]string{"owner": "icesql"}); err != nil {
		t.Fatal(err)
	}
	if err := rc.CreateNamespace(ctx, []string{"db", "sub"}, nil); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("iceberg", srv.warehouse+"?catalog_uri="+url.QueryEscape(srv.url))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE db.events (id BIGINT, name STRING) PARTITIONED BY (bucket(4, id))",
		"INSERT INTO db.events VALUES (1, 'a'), (2, 'b')",
		"INSERT INTO db.events VALUES (3, 'c')",
		"CREATE TABLE db.other (x INT)",
		"CREATE VIEW db.recent AS SELECT id FROM db.events WHERE id > 1",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	ctxRun, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := osexec.CommandContext(ctxRun, "node", "check.mjs", srv.url)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node check.mjs: %v\n%s", err, stderr.String())
	}
	var r jsReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("report %q: %v", stdout.String(), err)
	}

	rec, err := rc.LoadTable(ctx, catalog.Identifier{Namespace: []string{"db"}, Name: "events"})
	if err != nil {
		t.Fatal(err)
	}
	var snapID int64
	if err := db.QueryRow("SELECT snapshot_id FROM db.events.snapshots ORDER BY committed_at DESC LIMIT 1").Scan(&snapID); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		ok   bool
		got  any
	}{
		{"namespaces", slices.Contains(r.Namespaces, "db") && !slices.Contains(r.Namespaces, "db.sub"), r.Namespaces},
		{"children of db", slices.Equal(r.Children["db"], []string{"db.sub"}), r.Children},
		{"tables of db (no view)", slices.Equal(r.Tables["db"], []string{"db.events", "db.other"}), r.Tables},
		{"namespace properties", r.NamespaceProperties["owner"] == "icesql", r.NamespaceProperties},
		{"namespace exists", r.NamespaceExists && !r.MissingNamespaceExists, []bool{r.NamespaceExists, r.MissingNamespaceExists}},
		{"format version", r.Events.FormatVersion == 2, r.Events.FormatVersion},
		// JavaScript reads JSON numbers as doubles: a snapshot id (random
		// 63-bit, as Java's) arrives as the nearest double, so it is
		// compared as one.
		{"current snapshot", float64(r.Events.CurrentSnapshotID) == float64(snapID), r.Events.CurrentSnapshotID},
		{"snapshots", r.Events.Snapshots == 2, r.Events.Snapshots},
		{"schema", slices.Equal(r.Events.SchemaFields, []string{"1:id:long", "2:name:string"}), r.Events.SchemaFields},
		{"partition spec", slices.Equal(r.Events.PartitionFields, []string{"bucket[4]"}), r.Events.PartitionFields},
		{"location", strings.HasSuffix(r.Events.Location, "/db.db/events"), r.Events.Location},
		{"metadata location", r.EventsMetadataLocation == rec.MetadataLocation, r.EventsMetadataLocation},
		{"snapshots=refs", r.EventsRefsSnapshots == 1, r.EventsRefsSnapshots},
		{"table exists", r.TableExists && !r.MissingTableExists, []bool{r.TableExists, r.MissingTableExists}},
		{"missing table", r.MissingTableError == "404 NoSuchTableException", r.MissingTableError},
		{"created format version", r.CreatedFormatVersion == 2, r.CreatedFormatVersion},
		{"committed properties", r.CommittedProperties["committed-by"] == "iceberg-js" && r.CommittedProperties["created-by"] == "iceberg-js", r.CommittedProperties},
		{"stale commit", r.StaleCommitError == "409", r.StaleCommitError},
		{"purged drop", !r.DroppedExists, r.DroppedExists},
		{"endpoints", slices.Contains(r.Endpoints, "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}"), r.Endpoints},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if !c.ok {
				t.Errorf("iceberg-js saw %v", c.got)
			}
		})
	}

	// icesql reads and appends to the table iceberg-js created.
	if _, err := db.Exec("INSERT INTO js.made_by_js VALUES (1, 'from icesql')"); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM js.made_by_js WHERE note = 'from icesql'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("icesql reads iceberg-js's table: %d rows, %v", n, err)
	}
	var v string
	if err := db.QueryRow("SHOW TBLPROPERTIES js.made_by_js ('committed-by')").Scan(new(string), &v); err != nil || v != "iceberg-js" {
		t.Errorf("committed-by through icesql: %q, %v", v, err)
	}
}
