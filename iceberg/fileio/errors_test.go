package fileio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// TestPathErrorSentinels: every PathError matches a sentinel of package
// iceberg: its cause's, or ErrIO for the operating system's own failures.
func TestPathErrorSentinels(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	l := &Local{}
	_, missing := l.Open(ctx, filepath.Join(dir, "missing"))
	_, notAFile := l.Open(ctx, dir)
	_, badHost := l.Open(ctx, "file://elsewhere/x")
	_, s3 := l.Open(ctx, "s3://bucket/x")
	_, badURI := l.Open(ctx, "file://%zz/x")
	f, err := os.Create(filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(100)
	f.Close()
	in, err := l.Open(ctx, filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	_, tooLarge := ReadAll(in, 10)
	cases := []struct {
		name string
		err  error
		want error
		io   bool
	}{
		{"missing", missing, iceberg.ErrNotFound, false},
		{"directory", notAFile, iceberg.ErrNotFound, false},
		{"other host", badHost, iceberg.ErrUnsupported, false},
		{"s3", s3, iceberg.ErrUnsupported, false},
		{"unparsable URI", badURI, iceberg.ErrUnsupported, false},
		{"too large", tooLarge, iceberg.ErrTooLarge, false},
		{"I/O error", &PathError{Op: "read", Location: "x", Err: syscall.EIO}, iceberg.ErrIO, true},
		{"permission", &PathError{Op: "open", Location: "x", Err: fmt.Errorf("open x: %w", os.ErrPermission)}, iceberg.ErrIO, true},
		{"cancelled", &PathError{Op: "list", Location: "x", Err: context.Canceled}, context.Canceled, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var pe *PathError
			if !errors.As(c.err, &pe) || !errors.Is(c.err, c.want) {
				t.Fatalf("err = %v, want a *PathError matching %v", c.err, c.want)
			}
			if got := errors.Is(c.err, iceberg.ErrIO); got != c.io {
				t.Fatalf("errors.Is(%v, iceberg.ErrIO) = %v, want %v", c.err, got, c.io)
			}
		})
	}
}
