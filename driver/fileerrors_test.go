package driver_test

import (
	"errors"
	"os"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestFileErrorsMatchSentinels: failures on a table's files reach
// database/sql matching documented sentinels of package iceberg.
func TestFileErrorsMatchSentinels(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, f *corruptFixture)
		want   error
	}{
		{"metadata on HDFS", func(t *testing.T, f *corruptFixture) {
			setMetadataLocation(t, f.wh, "hdfs://namenode/c/metadata/00001.metadata.json")
		}, iceberg.ErrUnsupported},
		{"metadata on another host", func(t *testing.T, f *corruptFixture) {
			setMetadataLocation(t, f.wh, "file://elsewhere/c/metadata/00001.metadata.json")
		}, iceberg.ErrUnsupported},
		{"metadata is a directory", func(t *testing.T, f *corruptFixture) {
			setMetadataLocation(t, f.wh, "file://"+f.wh)
		}, iceberg.ErrNotFound},
		{"data file replaced by a directory", func(t *testing.T, f *corruptFixture) {
			p := f.files["data"]
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, iceberg.ErrNotFound},
		{"data file not Parquet", func(t *testing.T, f *corruptFixture) {
			if err := os.WriteFile(f.files["data"], []byte("id,s\n1,a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, iceberg.ErrInvalidDataFile},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newCorruptFixture(t)
			c.damage(t, f)
			db := openDB(t, f.wh)
			_, err := tryQueryStrings(db, "SELECT id, s FROM c ORDER BY id")
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want it to match %v", err, c.want)
			}
		})
	}
}
