package table

import (
	"context"
	"reflect"
	"testing"
)

// A committed table keeps the manifest list it wrote, and what it keeps is
// exactly what reading the list back gives, so the next commit on it may
// skip the read. Past the merge threshold the kept list holds merged
// manifests and still matches.
func TestCommittedTableKeepsItsManifestList(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, map[string]string{"commit.manifest.min-count-to-merge": "3"})
	for i := 1; i <= 5; i++ {
		var err error
		if tbl, err = tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, i%2, 10)).Commit(ctx); err != nil {
			t.Fatal(err)
		}
		snap := tbl.Metadata().CurrentSnapshot()
		if tbl.list == nil || tbl.list.location != snap.ManifestList {
			t.Fatalf("commit %d: table keeps no list for snapshot %d", i, snap.SnapshotID)
		}
		read, err := ManifestsOf(ctx, tbl.IO(), snap)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tbl.list.manifests, read) {
			t.Fatalf("commit %d: kept list\n%+v\nread list\n%+v", i, tbl.list.manifests, read)
		}
	}
	if got := len(liveFiles(t, tbl)); got != 5 {
		t.Fatalf("%d live files, want 5", got)
	}
}
