package driver_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestByteFlipsNeverReadAsWrongRows: single-byte changes to the pages of
// a small data file (everything before the footer: page headers and
// bodies) either fail the read or leave its rows as they were (a byte no
// reader uses); never a silently different answer. Page bodies are
// covered by the page CRCs every data file carries. The footer has no
// checksum in Parquet (a changed field id reads the column as missing),
// so it is not flipped here.
func TestByteFlipsNeverReadAsWrongRows(t *testing.T) {
	for _, codec := range []string{"uncompressed", "zstd", "snappy"} {
		t.Run(codec, func(t *testing.T) {
			wh := t.TempDir()
			db := openDB(t, wh)
			mustExec(t, db, "CREATE TABLE f (id BIGINT, s STRING, d DOUBLE, b BOOLEAN) TBLPROPERTIES ('write.parquet.compression-codec'='"+codec+"')")
			var values []string
			for i := range 40 {
				values = append(values, fmt.Sprintf("(%d, 'row %d', %d.5, %v)", i, i%7, i, i%3 == 0))
			}
			mustExec(t, db, "INSERT INTO f VALUES "+strings.Join(values, ", "))
			const q = "SELECT id, s, d, b FROM f ORDER BY id"
			want := queryStrings(t, db, q)
			path := localPath(t, queryStrings(t, db, "SELECT file_path FROM f.data_files")[0])
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			footer := len(orig) - 8 - int(binary.LittleEndian.Uint32(orig[len(orig)-8:]))
			rng := rand.New(rand.NewPCG(1, uint64(len(codec))))
			failed, same := 0, 0
			for range 150 {
				b := slices.Clone(orig)
				at := 4 + rng.IntN(footer-4) // past the leading magic
				b[at] ^= byte(1 + rng.IntN(255))
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				got, err := tryQueryStrings(db, q)
				switch {
				case err != nil:
					failed++
				case !slices.Equal(got, want):
					t.Errorf("byte %d of %d changed (%#x -> %#x; the footer starts at %d): read rows without an error, different from those written: %v", at, len(b), orig[at], b[at], footer, diff(got, want))
				default:
					same++
				}
			}
			t.Logf("%s: %d bytes, %d before the footer; 150 single-byte changes there: %d refused, %d read back unchanged", codec, len(orig), footer, failed, same)
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := queryStrings(t, db, q); !slices.Equal(got, want) {
				t.Fatalf("restored file reads %v", got)
			}
		})
	}
}

func diff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("row %d: %s, want %s", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d rows, want %d", len(got), len(want))
}
