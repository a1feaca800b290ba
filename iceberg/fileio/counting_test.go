package fileio_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/icesql/icesql/iceberg/fileio"
)

func TestCountReads(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	fio := fileio.CountReads(&fileio.Local{}, &n)
	in, err := fio.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	buf := make([]byte, 4)
	if _, err := in.ReadAt(buf, 6); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(in, buf[:3]); err != nil {
		t.Fatal(err)
	}
	// a read past the end counts only the bytes it returned
	if _, err := in.ReadAt(buf, 8); err != io.EOF {
		t.Fatalf("ReadAt past the end: %v", err)
	}
	if got := n.Load(); got != 4+3+2 {
		t.Fatalf("counted %d bytes, want 9", got)
	}
}
