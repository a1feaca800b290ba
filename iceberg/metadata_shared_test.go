package iceberg

import (
	"sync"
	"testing"
)

// Versions built one on another share one array of snapshots (a commit
// copies none of its history); a second child of the same base, or a
// caller appending to what Snapshots returns, never writes into a slot
// another version holds.
func TestSharedHistory(t *testing.T) {
	m := newTestTable(t, nil)
	for id := int64(1); id <= 3*smallSnapshots; id++ {
		next := appendSnapshot(t, m, id)
		if id > 2 && &next.snapshots[0] != &m.snapshots[0] && len(m.snapshots) < cap(m.snapshots) {
			t.Fatalf("snapshot %d: the history was copied with room to append in place", id)
		}
		m = next
	}
	head := m
	n := len(head.Snapshots())

	// Children of one base: the first appends in place, the second may not.
	first := appendSnapshot(t, head, 1001)
	second := appendSnapshot(t, head, 1002)
	third := appendSnapshot(t, first, 1003)
	check := func(name string, v *TableMetadata, ids ...int64) {
		t.Helper()
		snaps := v.Snapshots()
		if len(snaps) != n+len(ids) {
			t.Fatalf("%s: %d snapshots, want %d", name, len(snaps), n+len(ids))
		}
		for i, s := range snaps[:n] {
			if s != head.snapshots[i] {
				t.Fatalf("%s: snapshot %d is not the base's", name, i)
			}
		}
		for i, id := range ids {
			if snaps[n+i].SnapshotID != id {
				t.Fatalf("%s: snapshot %d has id %d, want %d", name, n+i, snaps[n+i].SnapshotID, id)
			}
		}
		if len(v.SnapshotLog()) != len(snaps) || v.SnapshotLog()[len(snaps)-1].SnapshotID != snaps[len(snaps)-1].SnapshotID {
			t.Fatalf("%s: snapshot log does not end at its last snapshot", name)
		}
		for _, other := range []int64{1001, 1002, 1003} {
			_, found := v.SnapshotByID(other)
			want := false
			for _, id := range ids {
				want = want || id == other
			}
			if found != want {
				t.Fatalf("%s: SnapshotByID(%d) found %v, want %v", name, other, found, want)
			}
		}
	}
	check("head", head)
	check("first child", first, 1001)
	check("second child", second, 1002)
	check("grandchild", third, 1001, 1003)

	// Appending to the returned slices copies; nobody's slot is taken.
	_ = append(head.Snapshots(), testSnapshot(9999, nil, 1, 1))
	_ = append(head.SnapshotLog(), SnapshotLogEntry{SnapshotID: 9999})
	check("first child after appending to the head's slices", first, 1001)

	// Expiring in a child leaves the base whole.
	b := NewMetadataBuilder(first)
	if err := b.RemoveSnapshots(1, 2, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(); err != nil {
		t.Fatal(err)
	}
	check("first child after a child of it expired", first, 1001)
	check("grandchild after expiry beside it", third, 1001, 1003)
}

// Children of one base built at once: each holds the base and its own
// snapshot, whichever won the slot after the base's (run with -race).
func TestSharedHistoryConcurrentChildren(t *testing.T) {
	m := newTestTable(t, nil)
	for id := int64(1); id <= 2*smallSnapshots; id++ {
		m = appendSnapshot(t, m, id)
	}
	const children = 8
	got := make([]*TableMetadata, children)
	var wg sync.WaitGroup
	for i := range children {
		wg.Go(func() {
			v := m
			for k := range 3 {
				v = appendSnapshot(t, v, int64(1000*(i+1)+k))
			}
			got[i] = v
		})
	}
	wg.Wait()
	for i, v := range got {
		snaps := v.Snapshots()
		if len(snaps) != len(m.Snapshots())+3 {
			t.Fatalf("child %d: %d snapshots", i, len(snaps))
		}
		for k := range 3 {
			id := int64(1000*(i+1) + k)
			if s, ok := v.SnapshotByID(id); !ok || s != snaps[len(m.Snapshots())+k] {
				t.Fatalf("child %d: snapshot %d missing or misplaced", i, id)
			}
			if _, ok := m.SnapshotByID(id); ok {
				t.Fatalf("the base finds child %d's snapshot %d", i, id)
			}
		}
		checkHistory(t, "concurrent child", v)
	}
}
