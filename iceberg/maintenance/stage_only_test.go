package maintenance

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// Write-audit-publish: a stage-only append adds a snapshot that main does
// not see; cherry-picking it publishes the rows once, recording the
// wap.id as published-wap-id, and a second publish of the same id fails.
func TestStageOnlyAppendPublishedByCherrypick(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := appendRows(t, f.create(t, false, nil), seq(0, 3), "a")
	head := tbl.Metadata().CurrentSnapshotID()

	u := tbl.NewAppend().StageOnly().SetSummary("wap.id", "audit-1")
	for _, df := range writeFiles(t, tbl, seq(100, 102), "a") {
		u.AddDataFile(df)
	}
	tbl, err := u.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata()
	if m.CurrentSnapshotID() != head {
		t.Fatalf("a staged commit moved main from %d to %d", head, m.CurrentSnapshotID())
	}
	staged := m.Snapshots()[len(m.Snapshots())-1]
	if staged.ParentSnapshotID == nil || *staged.ParentSnapshotID != head || staged.Summary["wap.id"] != "audit-1" {
		t.Fatalf("staged snapshot %+v", staged)
	}
	if got := len(m.SnapshotLog()); got != 1 {
		t.Fatalf("snapshot log has %d entries; a staged snapshot adds none", got)
	}
	if got := readIDs(t, tbl, 0); !slices.Equal(got, seq(0, 3)) {
		t.Fatalf("main reads %v before publishing", got)
	}
	if got := readIDs(t, tbl, staged.SnapshotID); !slices.Equal(got, append(seq(0, 3), seq(100, 102)...)) {
		t.Fatalf("the staged snapshot reads %v", got)
	}

	// Another commit lands on main first, so publishing is a real pick.
	tbl = appendRows(t, f.load(t), seq(10, 11), "a")
	res, err := CherrypickSnapshot(ctx, tbl, staged.SnapshotID)
	if err != nil {
		t.Fatal(err)
	}
	tbl = f.load(t)
	cur := tbl.Metadata().CurrentSnapshot()
	if cur.SnapshotID != res.CurrentSnapshotID || cur.Summary[SummaryPublishedWAPID] != "audit-1" {
		t.Fatalf("published snapshot %+v", cur)
	}
	want := append(append(seq(0, 3), seq(10, 11)...), seq(100, 102)...)
	if got := readIDs(t, tbl, 0); !slices.Equal(got, want) {
		t.Fatalf("main reads %v after publishing, want %v", got, want)
	}
	if _, err := CherrypickSnapshot(ctx, tbl, staged.SnapshotID); !errors.Is(err, ErrAlreadyCherrypicked) {
		t.Fatalf("second publish: %v, want ErrAlreadyCherrypicked", err)
	}
}
