package table

import (
	"context"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// dvOf describes a deletion vector for data file of n deleted rows, stored
// in puffin at offset.
func dvOf(data iceberg.DataFile, puffin string, offset, n int64) iceberg.DataFile {
	size := int64(40)
	ref := data.FilePath
	return iceberg.DataFile{
		Content: iceberg.ContentPositionDeletes, FilePath: puffin, FileFormat: iceberg.FormatPuffin,
		SpecID: data.SpecID, Partition: data.Partition, RecordCount: n, FileSizeInBytes: 1000,
		ReferencedDataFile: &ref, ContentOffset: &offset, ContentSizeInBytes: &size,
	}
}

// Deletion vectors count as Java counts them (added-dvs, the blob's size),
// and removing one DV of a Puffin file keeps the file's other DVs live.
func TestDeletionVectorsInSummariesAndRemoval(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, map[string]string{"format-version": "3"})
	a, b := f.dayFile(t, tbl, 0, 10), f.dayFile(t, tbl, 0, 10)
	var err error
	if tbl, err = tbl.NewAppend().AddDataFile(a).AddDataFile(b).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	puffin := tbl.DataDir() + "/deletes-1.puffin"
	touch := func(path string) {
		out, err := f.env.IO.Create(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		out.Close()
	}
	touch(puffin)
	dvA, dvB := dvOf(a, puffin, 4, 2), dvOf(b, puffin, 44, 3)
	if tbl, err = tbl.NewRowDelta().AddDeleteFile(dvA).AddDeleteFile(dvB).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	s := tbl.Metadata().CurrentSnapshot().Summary
	for k, want := range map[string]string{"added-dvs": "2", "added-delete-files": "2", "added-position-deletes": "5",
		"added-files-size": "80", "total-delete-files": "2", "total-position-deletes": "5"} {
		if s[k] != want {
			t.Errorf("after adding DVs: %s = %q, want %q (summary %v)", k, s[k], want, s)
		}
	}
	if _, ok := s["added-position-delete-files"]; ok {
		t.Errorf("DVs counted as position delete files: %v", s)
	}

	// Replace a's DV by a new one in another Puffin file: b's DV in the
	// first file must stay.
	dvA2 := dvOf(a, tbl.DataDir()+"/deletes-2.puffin", 4, 4)
	touch(dvA2.FilePath)
	if tbl, err = tbl.NewRowDelta().RemoveFile(dvA).AddDeleteFile(dvA2).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	s = tbl.Metadata().CurrentSnapshot().Summary
	for k, want := range map[string]string{"added-dvs": "1", "removed-dvs": "1", "removed-delete-files": "1",
		"removed-position-deletes": "2", "total-delete-files": "2", "total-position-deletes": "7"} {
		if s[k] != want {
			t.Errorf("after replacing a DV: %s = %q, want %q (summary %v)", k, s[k], want, s)
		}
	}
	live := map[string]int{}
	for _, p := range liveFiles(t, tbl) {
		live[p]++
	}
	if live[puffin] != 1 || live[dvA2.FilePath] != 1 {
		t.Fatalf("live files %v: want b's DV in %s and a's new DV", live, puffin)
	}
}
