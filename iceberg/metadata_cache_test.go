package iceberg

import (
	"bytes"
	"sync"
	"testing"
)

// The snapshot encoding cache is shared between metadata versions; every
// version must still encode exactly its own snapshots, also concurrently
// and after a later version dropped some of them.
func TestSnapshotJSONCacheAcrossVersions(t *testing.T) {
	m0 := newTestTable(t, nil)
	apply := func(base *TableMetadata, f func(b *MetadataBuilder) error) *TableMetadata {
		t.Helper()
		b := NewMetadataBuilder(base)
		if err := f(b); err != nil {
			t.Fatal(err)
		}
		m, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m1 := apply(m0, func(b *MetadataBuilder) error {
		if err := b.AddSnapshot(testSnapshot(1, nil, 1, 1000)); err != nil {
			return err
		}
		return b.SetSnapshotRef(MainBranch, NewBranch(1))
	})
	m2 := apply(m1, func(b *MetadataBuilder) error {
		if err := b.AddSnapshot(testSnapshot(2, int64p(1), 2, 2000)); err != nil {
			return err
		}
		if err := b.SetSnapshotRef(MainBranch, NewBranch(2)); err != nil {
			return err
		}
		return b.RemoveSnapshots(1)
	})
	enc := func(m *TableMetadata) []byte {
		b, err := EncodeMetadata(m, false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first1 := enc(m1)
	first2 := enc(m2)
	if snap1 := []byte(`"sequence-number":1,"snapshot-id":1,`); !bytes.Contains(first1, snap1) || bytes.Contains(first2, snap1) {
		t.Fatalf("versions encode the wrong snapshots:\n%s\n%s", first1, first2)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			m, want := m1, first1
			if i%2 == 1 {
				m, want = m2, first2
			}
			if got := enc(m); !bytes.Equal(got, want) {
				t.Errorf("version %d encodes differently on a later call", 1+i%2)
			}
		}(i)
	}
	wg.Wait()
	// The cached form parses back to the same metadata.
	again, err := ParseMetadata(first2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(enc(again), first2) {
		t.Fatal("parse and encode again differs")
	}
}
