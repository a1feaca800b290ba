package driver_test

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestVerifyPageChecksumsOption: a changed byte inside a page's values is
// refused by default (the page CRC no longer matches), and read as the
// changed value on a connection opened with verify_page_checksums=false,
// which is what that option trades for speed.
func TestVerifyPageChecksumsOption(t *testing.T) {
	wh := t.TempDir()
	db := openDB(t, wh)
	mustExec(t, db, "CREATE TABLE p (s STRING) TBLPROPERTIES ('write.parquet.compression-codec'='uncompressed')")
	mustExec(t, db, "INSERT INTO p VALUES ('marker-AAAA'), ('other')")
	path := localPath(t, queryStrings(t, db, "SELECT file_path FROM p.data_files")[0])
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(b, []byte("marker-AAAA"))
	if at < 0 {
		t.Fatal("value not found stored plainly in the data file")
	}
	b[at+7] = 'B'
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT s FROM p ORDER BY s"
	if _, err := tryQueryStrings(db, q); !errors.Is(err, iceberg.ErrInvalidDataFile) {
		t.Fatalf("default connection: err = %v, want iceberg.ErrInvalidDataFile", err)
	}
	unverified := openDB(t, wh+"?verify_page_checksums=false")
	got, err := tryQueryStrings(unverified, q)
	if err != nil {
		t.Fatalf("verify_page_checksums=false: %v", err)
	}
	if want := []string{"marker-BAAA", "other"}; !slices.Equal(got, want) {
		t.Fatalf("verify_page_checksums=false read %v, want %v", got, want)
	}
}
