package sqlexec

import (
	"context"
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg/table"
)

// Staged writes carry the session's WAP id in their summary and leave main
// alone, inside a transaction too; the files of a write refused for a bad
// property combination are removed.
func TestWAPStagesWithTheSessionID(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	exec := func(sql string) error {
		_, err := s.Exec(ctx, sql, nil)
		return err
	}
	for _, q := range []string{
		"CREATE TABLE t (id BIGINT) TBLPROPERTIES ('write.wap.enabled' = 'true')",
		"INSERT INTO t VALUES (1)",
		"SET spark.wap.id = w1",
		"INSERT INTO t VALUES (2)",
		"BEGIN",
		"INSERT INTO t VALUES (3)",
		"COMMIT",
	} {
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	tbl, err := table.Load(ctx, s.engine.env, table.Identifier{Namespace: []string{"default"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata()
	snaps := m.Snapshots()
	if len(snaps) != 3 {
		t.Fatalf("%d snapshots, want 3", len(snaps))
	}
	main := m.CurrentSnapshot()
	if main.SnapshotID != snaps[0].SnapshotID {
		t.Fatalf("main moved to %d", main.SnapshotID)
	}
	for _, sn := range snaps[1:] {
		if sn.Summary["wap.id"] != "w1" || sn.ParentSnapshotID == nil || *sn.ParentSnapshotID != main.SnapshotID {
			t.Fatalf("staged snapshot %d: parent %v summary %v", sn.SnapshotID, sn.ParentSnapshotID, sn.Summary)
		}
	}

	if err := exec("SET spark.wap.branch = b"); err != nil {
		t.Fatal(err)
	}
	before := dataFiles(t, s, "t")
	if err := exec("INSERT INTO t VALUES (4)"); !errors.Is(err, ErrInvalidSessionProperty) {
		t.Fatalf("insert with both WAP properties: %v", err)
	}
	if after := dataFiles(t, s, "t"); after != before {
		t.Fatalf("a refused insert left %d data files behind", after-before)
	}
}
