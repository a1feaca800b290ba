package fileio

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestLocalCreateIsExclusiveAndDurable(t *testing.T) {
	ctx := context.Background()
	io_ := &Local{}
	uri, err := LocalURI(filepath.Join(t.TempDir(), "a", "b", "f.bin"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io_.Create(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io_.Create(ctx, uri); !errors.Is(err, ErrExists) || !errors.Is(err, iceberg.ErrFileExists) {
		t.Fatalf("second create: got %v, want ErrExists", err)
	}
	in, err := io_.Open(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if in.Size() != 5 {
		t.Fatalf("size %d", in.Size())
	}
	b, _ := io.ReadAll(in)
	if string(b) != "hello" {
		t.Fatalf("read %q", b)
	}
}

func TestLocalAbortRemoves(t *testing.T) {
	ctx := context.Background()
	l := &Local{}
	p := filepath.Join(t.TempDir(), "x")
	out, err := l.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	out.Write([]byte("partial"))
	if err := out.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(ctx, p); !errors.Is(err, ErrNotFound) {
		t.Fatalf("open after abort: %v", err)
	}
}

func TestLocalListAndRemove(t *testing.T) {
	ctx := context.Background()
	l := &Local{NoSync: true}
	dir := t.TempDir()
	root, _ := LocalURI(dir)
	for _, name := range []string{"a/1", "a/2", "b/3"} {
		out, err := l.Create(ctx, root+"/"+name)
		if err != nil {
			t.Fatal(err)
		}
		out.Close()
	}
	var n int
	for fi, err := range l.List(ctx, root) {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Open(ctx, fi.Location); err != nil {
			t.Fatalf("listed location %q does not open: %v", fi.Location, err)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("listed %d files, want 3", n)
	}
	if err := l.Remove(ctx, root+"/a/1"); err != nil {
		t.Fatal(err)
	}
	if err := l.Remove(ctx, root+"/a/1"); err != nil {
		t.Fatalf("removing a missing file: %v", err)
	}
	// A missing directory lists as empty.
	for _, err := range l.List(ctx, root+"/nope") {
		t.Fatalf("unexpected entry or error: %v", err)
	}
	var pe *PathError
	if _, err := l.Open(ctx, root+"/a"); !errors.Is(err, ErrNotAFile) || !errors.As(err, &pe) || pe.Op != "open" {
		t.Fatalf("opening a directory: %v, want a *PathError matching ErrNotAFile", err)
	}
}

func TestLocalPath(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"file:///tmp/x/y", "/tmp/x/y", false},
		{"file://localhost/tmp/x", "/tmp/x", false},
		{"/plain/path", "/plain/path", false},
		{"s3://bucket/key", "", true},
		{"file://otherhost/x", "", true},
		{"file:", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := LocalPath(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Fatalf("got %q want %q", got, tt.want)
			}
		})
	}
}
