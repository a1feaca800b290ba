package driver_test

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/childtest"
)

// hugeSize is the size sparse files are grown to: far past every reader's
// limit and past the child's memory, but costing no disk.
const hugeSize = 64 << 30

// grow extends the file at p, sparsely, to size bytes and writes tail at
// its end.
func grow(p string, size int64, tail []byte) error {
	if err := os.Truncate(p, size); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteAt(tail, size-int64(len(tail)))
	return err
}

// lieAboutBlock keeps an Avro container's header and replaces its blocks
// with one whose count and length fields promise far more than follows.
func lieAboutBlock(count, size int64) func(string) error {
	return func(p string) error {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sync := b[len(b)-16:] // every block ends with the header's sync marker
		head := bytes.Index(b, sync) + 16
		out := append([]byte{}, b[:head]...)
		out = binary.AppendVarint(out, count)
		out = binary.AppendVarint(out, size)
		out = append(out, "a short block"...)
		out = append(out, sync...)
		return os.WriteFile(p, out, 0o644)
	}
}

// parquetTrailer is a footer length and the closing magic.
func parquetTrailer(n uint32) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, n), "PAR1"...)
}

// setMetadataLocation points the catalog row of c at loc.
func setMetadataLocation(t *testing.T, wh, loc string) {
	t.Helper()
	cat, err := sql.Open("sqlite3", filepath.Join(wh, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	if _, err := cat.Exec("UPDATE iceberg_tables SET metadata_location = ? WHERE table_name = 'c'", loc); err != nil {
		t.Fatal(err)
	}
}

// TestHugeAndLyingFiles: files far larger than their readers hold, or
// whose length fields promise more than the file has, are refused with
// typed errors (iceberg.ErrTooLarge for sizes past a limit, the file
// kind's sentinel always) instead of exhausting memory. In a child
// process with capped memory, so a regression fails one test.
func TestHugeAndLyingFiles(t *testing.T) {
	childtest.Run(t, "TestHugeAndLyingFiles", func(t *testing.T) {
		cases := []struct {
			kind, name string
			damage     func(string) error
			want       []error
		}{
			{"metadata", "sparse 64 GiB", func(p string) error { return grow(p, hugeSize, []byte("}")) },
				[]error{iceberg.ErrTooLarge, iceberg.ErrInvalidMetadata}},
			{"manifest-list", "sparse 64 GiB", func(p string) error { return grow(p, hugeSize, nil) },
				[]error{iceberg.ErrTooLarge, iceberg.ErrInvalidManifest}},
			{"manifest", "sparse 64 GiB", func(p string) error { return grow(p, hugeSize, nil) },
				[]error{iceberg.ErrTooLarge, iceberg.ErrInvalidManifest}},
			{"manifest", "block length past the file", lieAboutBlock(1, 200<<20),
				[]error{iceberg.ErrInvalidManifest}},
			{"manifest", "block length of 2^62", lieAboutBlock(1, 1<<62),
				[]error{iceberg.ErrInvalidManifest}},
			{"manifest", "block count of 2^62", lieAboutBlock(1<<62, 16),
				[]error{iceberg.ErrInvalidManifest}},
			{"manifest-list", "block length past the file", lieAboutBlock(1, 200<<20),
				[]error{iceberg.ErrInvalidManifest}},
			{"data", "sparse 64 GiB with a 4 GiB footer", func(p string) error { return grow(p, hugeSize, parquetTrailer(1<<32-1)) },
				[]error{iceberg.ErrTooLarge, iceberg.ErrInvalidDataFile}},
			{"data", "footer length past the file", func(p string) error { return grow(p, 1<<20, parquetTrailer(1<<30)) },
				[]error{iceberg.ErrInvalidDataFile}},
			{"delete", "sparse 64 GiB with a 4 GiB footer", func(p string) error { return grow(p, hugeSize, parquetTrailer(1<<32-1)) },
				[]error{iceberg.ErrTooLarge, iceberg.ErrInvalidDataFile}},
		}
		for _, c := range cases {
			t.Run(c.kind+"/"+c.name, func(t *testing.T) {
				f := newCorruptFixture(t)
				path := f.files[c.kind]
				if err := c.damage(path); err != nil {
					t.Fatal(err)
				}
				db := openDB(t, f.wh)
				_, err := tryQueryStrings(db, "SELECT id, s FROM c ORDER BY id")
				for _, w := range c.want {
					if !errors.Is(err, w) {
						t.Errorf("err = %v, want it to match %v", err, w)
					}
				}
				if err != nil && !strings.Contains(err.Error(), filepath.Base(path)) {
					t.Errorf("err = %v does not name %s", err, filepath.Base(path))
				}
			})
		}
		// A catalog row naming a device or a FIFO: refused as not a
		// regular file, never read (endless) or waited on.
		fifo := filepath.Join(t.TempDir(), "fifo.metadata.json")
		if err := mkfifo(fifo); err != nil {
			t.Logf("no FIFO: %v", err)
			fifo = ""
		}
		for _, loc := range []string{"/dev/zero", fifo} {
			if loc == "" {
				continue
			}
			t.Run("catalog row naming "+filepath.Base(loc), func(t *testing.T) {
				f := newCorruptFixture(t)
				setMetadataLocation(t, f.wh, "file://"+loc)
				db := openDB(t, f.wh)
				_, err := tryQueryStrings(db, "SELECT id, s FROM c")
				if !errors.Is(err, iceberg.ErrNotFound) {
					t.Fatalf("err = %v, want iceberg.ErrNotFound (not a regular file)", err)
				}
			})
		}
	})
}
