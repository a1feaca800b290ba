package iceberg

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"sync"
	"testing"
)

// appendSnapshot is m plus one snapshot made the head of main.
func appendSnapshot(t testing.TB, m *TableMetadata, id int64) *TableMetadata {
	t.Helper()
	b := NewMetadataBuilder(m)
	b.SetPreviousMetadataFile(fmt.Sprintf("s3://w/db/t/metadata/%05d-a.metadata.json", len(m.Snapshots())))
	var parent *int64
	if cur := m.CurrentSnapshot(); cur != nil {
		parent = int64p(cur.SnapshotID)
	}
	s := testSnapshot(id, parent, m.NextSequenceNumber(), 1000+id)
	s.Summary["added-records"] = fmt.Sprint(id)
	if err := b.AddSnapshot(s); err != nil {
		t.Fatal(err)
	}
	if err := b.SetSnapshotRef(MainBranch, NewBranch(id)); err != nil {
		t.Fatal(err)
	}
	out, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkHistory compares m's id lookups with a scan, its snapshot log
// with its snapshots, and its encoding with one made without any cache.
func checkHistory(t *testing.T, step string, m *TableMetadata) {
	t.Helper()
	for _, s := range m.Snapshots() {
		if got, ok := m.SnapshotByID(s.SnapshotID); !ok || got != s {
			t.Fatalf("%s: SnapshotByID(%d) = %v, %v", step, s.SnapshotID, got, ok)
		}
	}
	if _, ok := m.SnapshotByID(-42); ok {
		t.Fatalf("%s: found a snapshot that is not there", step)
	}
	for _, e := range m.SnapshotLog() {
		if _, ok := scanSnapshots(m.Snapshots(), e.SnapshotID); !ok {
			t.Fatalf("%s: snapshot-log names missing snapshot %d", step, e.SnapshotID)
		}
	}
	got, err := EncodeMetadata(m, false)
	if err != nil {
		t.Fatal(err)
	}
	fresh := *m
	fresh.snapJSON = nil
	want, err := EncodeMetadata(&fresh, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: cached encoding differs from a fresh one:\n%s\n%s", step, got, want)
	}
	// Gzipped, from cached runs or compressed afresh, it is one gzip
	// member holding the same bytes.
	for _, v := range []*TableMetadata{m, &fresh} {
		gz, err := EncodeMetadata(v, true)
		if err != nil {
			t.Fatal(err)
		}
		if plain := gunzipOne(t, gz); !bytes.Equal(plain, want) {
			t.Fatalf("%s: gzipped encoding (cache %v) holds other bytes:\n%s\n%s", step, v.snapJSON != nil, plain, want)
		}
	}
	back, err := ParseMetadata(got)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if len(back.Snapshots()) != len(m.Snapshots()) || len(back.SnapshotLog()) != len(m.SnapshotLog()) {
		t.Fatalf("%s: read back %d snapshots, %d log entries", step, len(back.Snapshots()), len(back.SnapshotLog()))
	}
}

// TestLongHistory: versions of a table with more snapshots than a lookup
// scans, encoded in orders the snapshot cache must survive: each version
// in turn, an older one after a newer, two different children of one
// base, expiry in the middle of the history, a version read back from its
// file, and concurrent encodings.
func TestLongHistory(t *testing.T) {
	defer func(size int) { zRunSize = size }(zRunSize)
	zRunSize = 700 // a few snapshots per compressed run
	base := newTestTable(t, nil)
	versions := []*TableMetadata{base}
	m := base
	for id := int64(1); id <= 3*smallSnapshots; id++ {
		m = appendSnapshot(t, m, id)
		versions = append(versions, m)
	}
	head := m
	steps := []struct {
		name string
		meta func(t *testing.T) *TableMetadata
	}{
		{"head", func(*testing.T) *TableMetadata { return head }},
		{"older after newer", func(*testing.T) *TableMetadata { return versions[smallSnapshots+3] }},
		{"first child", func(t *testing.T) *TableMetadata { return appendSnapshot(t, head, 1001) }},
		{"second child of the same base", func(t *testing.T) *TableMetadata { return appendSnapshot(t, head, 1002) }},
		{"head again", func(*testing.T) *TableMetadata { return head }},
		{"expire in the middle", func(t *testing.T) *TableMetadata {
			b := NewMetadataBuilder(head)
			if err := b.RemoveSnapshots(5, 20, 21); err != nil {
				t.Fatal(err)
			}
			out, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			if len(out.SnapshotLog()) != len(head.SnapshotLog())-21 {
				t.Fatalf("snapshot log kept %d of %d entries, want those after 21", len(out.SnapshotLog()), len(head.SnapshotLog()))
			}
			for _, id := range []int64{5, 20, 21} {
				if _, ok := out.SnapshotByID(id); ok {
					t.Fatalf("expired snapshot %d still found", id)
				}
			}
			return appendSnapshot(t, out, 2001)
		}},
		{"expire the oldest, then appended", func(t *testing.T) *TableMetadata {
			b := NewMetadataBuilder(head)
			if err := b.RemoveSnapshots(1, 2, 3, 4, 5, 6, 7); err != nil {
				t.Fatal(err)
			}
			out, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			checkHistory(t, "expire the oldest", out)
			return appendSnapshot(t, out, 2501)
		}},
		{"expire the oldest again", func(t *testing.T) *TableMetadata {
			b := NewMetadataBuilder(head)
			if err := b.RemoveSnapshots(1, 2, 3, 4, 5, 6, 7, 8); err != nil {
				t.Fatal(err)
			}
			out, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			return out
		}},
		{"read back, then appended", func(t *testing.T) *TableMetadata {
			data, err := EncodeMetadata(head, false)
			if err != nil {
				t.Fatal(err)
			}
			read, err := ParseMetadata(data)
			if err != nil {
				t.Fatal(err)
			}
			return appendSnapshot(t, read, 3001)
		}},
	}
	for _, st := range steps {
		checkHistory(t, st.name, st.meta(t))
	}
	for _, v := range versions {
		checkHistory(t, fmt.Sprintf("version with %d snapshots", len(v.Snapshots())), v)
	}

	// Bytes the cache handed out (a file may still be being written from
	// them) never change, whatever is encoded after.
	held := map[int][]byte{}
	for i, v := range versions {
		b, err := v.snapJSON.encode(v.Snapshots())
		if err != nil {
			t.Fatal(err)
		}
		held[i] = b
	}
	want := map[int][]byte{}
	for i, b := range held {
		want[i] = bytes.Clone(b)
	}
	for _, v := range []*TableMetadata{versions[3], appendSnapshot(t, versions[3], 4001), head, appendSnapshot(t, head, 4002)} {
		if _, err := v.snapJSON.encode(v.Snapshots()); err != nil {
			t.Fatal(err)
		}
		for i := range held {
			if !bytes.Equal(held[i], want[i]) {
				t.Fatalf("the snapshots encoded for version %d changed after encoding %d snapshots", i, len(v.Snapshots()))
			}
		}
	}

	// Concurrent encodings of different versions sharing one cache.
	var wg sync.WaitGroup
	for i, v := range versions {
		fresh := *v
		fresh.snapJSON = nil
		want[i], _ = EncodeMetadata(&fresh, false)
	}
	for i := range versions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				got, err := EncodeMetadata(versions[(i*7)%len(versions)], false)
				if err != nil || !bytes.Equal(got, want[(i*7)%len(versions)]) {
					t.Errorf("concurrent encoding of version %d differs (%v)", (i*7)%len(versions), err)
					return
				}
				gz, err := EncodeMetadata(versions[(i*5)%len(versions)], true)
				if err == nil {
					var zr *gzip.Reader
					if zr, err = gzip.NewReader(bytes.NewReader(gz)); err == nil {
						got, err = io.ReadAll(zr)
					}
				}
				if err != nil || !bytes.Equal(got, want[(i*5)%len(versions)]) {
					t.Errorf("concurrent gzipped encoding of version %d differs (%v)", (i*5)%len(versions), err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
