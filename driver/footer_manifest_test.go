package driver_test

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// footerRows reads every row of q as its columns' printed values.
func footerRows(db *sql.DB, q string) (out []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out, rows.Err()
}

// footerTable writes a small table and returns its data file and bytes.
func footerTable(t *testing.T) (*sql.DB, string, []byte) {
	t.Helper()
	// No data file cache: each read must see the bytes edited on disk.
	db := openDB(t, t.TempDir()+"?data_file_cache=0")
	mustExec(t, db, "CREATE TABLE f (alpha_col BIGINT, beta_col STRING, gamma_col DOUBLE) TBLPROPERTIES ('write.parquet.compression-codec'='uncompressed')")
	mustExec(t, db, "INSERT INTO f VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, NULL, 3.5)")
	path := localPath(t, queryStrings(t, db, "SELECT file_path FROM f.data_files")[0])
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return db, path, b
}

const footerQuery = "SELECT alpha_col, beta_col, gamma_col FROM f ORDER BY alpha_col"

// footerStart is the offset of the thrift FileMetaData in a parquet file.
func footerStart(b []byte) int {
	return len(b) - 8 - int(binary.LittleEndian.Uint32(b[len(b)-8:]))
}

// TestFooterDisagreeingWithManifest: a footer edited into another valid
// one (a column's field id renumbered, the row count changed) is refused
// with iceberg.ErrInvalidDataFile instead of read as nulls or wrong rows.
func TestFooterDisagreeingWithManifest(t *testing.T) {
	db, path, orig := footerTable(t)
	want, err := footerRows(db, footerQuery)
	if err != nil {
		t.Fatal(err)
	}
	start := footerStart(orig)
	name := bytes.Index(orig[start:], []byte("beta_col"))
	if name < 0 {
		t.Fatal("column name not in the footer")
	}
	name += start + len("beta_col")
	edits := map[string]func(b []byte) bool{
		// SchemaElement.field_id (field 9, i32) of beta_col, id 2
		// (zigzag 4), follows its name and converted_type: renumber it.
		"renumbered field id": func(b []byte) bool {
			for i := name; i < name+8; i++ {
				if (b[i] == 0x35 || b[i] == 0x55) && b[i+1] == 0x04 {
					b[i+1] = 0x12 // id 9
					return true
				}
			}
			return false
		},
		// FileMetaData.num_rows (field 3, i64) follows the schema: 3
		// rows (zigzag 6) becomes 4.
		"changed num_rows": func(b []byte) bool {
			last := bytes.Index(b[start:], []byte("gamma_col")) + start
			if i := bytes.Index(b[last:], []byte{0x16, 0x06}); i >= 0 {
				b[last+i+1] = 0x08
				return true
			}
			return false
		},
	}
	for what, edit := range edits {
		b := slices.Clone(orig)
		if !edit(b) {
			t.Fatalf("%s: field not found in the footer", what)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := footerRows(db, footerQuery)
		if !errors.Is(err, iceberg.ErrInvalidDataFile) {
			t.Errorf("%s: rows %v, err %v; want iceberg.ErrInvalidDataFile (original rows %v)", what, got, err, want)
		}
	}
}

// TestFooterRandomFlips changes one random byte of the footer at a time
// (seeded): every read returns the original rows or fails with a typed
// error, never other rows and never a panic.
func TestFooterRandomFlips(t *testing.T) {
	db, path, orig := footerTable(t)
	want, err := footerRows(db, footerQuery)
	if err != nil {
		t.Fatal(err)
	}
	start, end := footerStart(orig), len(orig)-8
	rng := rand.New(rand.NewSource(14))
	const n = 400
	var same, detected int
	for i := 0; i < n; i++ {
		b := slices.Clone(orig)
		at := start + rng.Intn(end-start)
		b[at] ^= byte(1 + rng.Intn(255))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := footerRows(db, footerQuery)
		switch {
		case err == nil && slices.Equal(got, want):
			same++
		case err == nil:
			t.Errorf("flip %d at footer byte %d: read %v, want %v", i, at-start, got, want)
		case errors.Is(err, iceberg.ErrInvalidDataFile), errors.Is(err, iceberg.ErrTooLarge), errors.Is(err, iceberg.ErrUnsupported):
			detected++
		default:
			t.Errorf("flip %d at footer byte %d: untyped error %v", i, at-start, err)
		}
	}
	t.Logf("%d random footer flips: %d detected, %d read the original rows", n, detected, same)
}
