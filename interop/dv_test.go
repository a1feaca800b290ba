package interop

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg/dv"
	"github.com/icesql/icesql/iceberg/puffin"
)

// TestSQLDeletionVectorsIcebergGoReads: merge-on-read DELETE and UPDATE
// on a format v3 table write deletion vectors (a second DELETE replaces
// a file's vector); iceberg-go's scan, which applies DVs, returns what
// SELECT returns.
func TestSQLDeletionVectorsIcebergGoReads(t *testing.T) {
	dir := t.TempDir()
	db := openSQL(t, dir)
	mustExec(t, db, "CREATE NAMESPACE lake")
	mustExec(t, db, "CREATE TABLE lake.events ("+flatSQLColumns+") PARTITIONED BY (bucket(2, id)) TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')")
	const n = 90
	insertFlatRows(t, db, "lake.events", n)
	mustExec(t, db, "DELETE FROM lake.events WHERE id IN (3, 4, 17)")
	mustExec(t, db, "DELETE FROM lake.events WHERE id IN (42, 43, 88)")
	mustExec(t, db, "UPDATE lake.events SET amount = 1000.5 WHERE id IN (5, 6, 60)")

	want := expectedRows(t, arrowOf(t, flatSchema(t)), flatRowsAfterDML(n))
	requireSameRows(t, "expected", want, "SQL SELECT", sqlRows(t, db, "SELECT id, category, ts, amount FROM lake.events"))
	goCat := openGoCatalog(t, filepath.Join(dir, "catalog.db"), dir)
	goTbl := goLoad(t, goCat, goIdent([]string{"lake"}, "events"))
	requireSameRows(t, "expected", want, "iceberg-go", goRows(t, goTbl))
}

// TestJavaDeletionVectorFixtures decodes the Java-written Puffin files
// and portable bitmaps that iceberg-go ships as test data.
func TestJavaDeletionVectorFixtures(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/apache/iceberg-go").Output()
	if err != nil {
		t.Skipf("iceberg-go module directory: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "table", "dv", "testdata", "deletes")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Skipf("fixture: %v", err)
		}
		return b
	}
	t.Run("puffin", func(t *testing.T) {
		want := map[string]map[string][]int64{
			"single-blob-dv.puffin": {"s3://warehouse/db/table/data/00000-0-abc.parquet": {1, 3, 5, 7, 9}},
			"multi-blob-dv.puffin":  {"file-001.parquet": {0, 100, 200}, "file-002.parquet": {50, 150}},
		}
		for name, blobs := range want {
			file := read(name)
			r, err := puffin.NewReader(bytes.NewReader(file), int64(len(file)), 0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := map[string][]int64{}
			for _, b := range r.Metadata().Blobs {
				if b.Type != dv.BlobType {
					t.Fatalf("%s: blob type %q", name, b.Type)
				}
				data, err := r.ReadBlob(b)
				if err != nil {
					t.Fatal(err)
				}
				ps, err := dv.DecodeBlob(data, 1<<20)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				ref := b.Properties[dv.PropReferencedDataFile]
				got[filepath.Base(ref)] = ps
				// Our encoding of the same positions is byte-identical.
				if re, err := dv.EncodeBlob(ps); err != nil || !bytes.Equal(re, data) {
					t.Errorf("%s: re-encoded blob differs (%v)", name, err)
				}
			}
			for ref, ps := range blobs {
				if !slices.Equal(got[filepath.Base(ref)], ps) {
					t.Errorf("%s: %s has %v, want %v", name, ref, got[filepath.Base(ref)], ps)
				}
			}
		}
	})
	t.Run("portable bitmaps", func(t *testing.T) {
		// Keys with the sign bit set are not positions; Java refuses them too.
		if _, err := dv.DecodeBitmap(read("64maphighvals.bin"), 1<<24); !errors.Is(err, dv.ErrCorrupt) {
			t.Fatalf("64maphighvals.bin: got %v, want ErrCorrupt", err)
		}
		for _, name := range []string{"64mapempty.bin", "64map32bitvals.bin", "64mapspreadvals.bin"} {
			b := read(name)
			ps, err := dv.DecodeBitmap(b, 1<<24)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.IsSorted(ps) {
				t.Fatalf("%s: positions not sorted", name)
			}
			re, err := dv.EncodeBitmap(ps)
			if err != nil {
				t.Fatal(err)
			}
			back, err := dv.DecodeBitmap(re, 1<<24)
			if err != nil || !slices.Equal(back, ps) {
				t.Fatalf("%s: round trip changed %d positions (%v)", name, len(ps), err)
			}
			t.Logf("%s: %d positions", name, len(ps))
		}
	})
}
