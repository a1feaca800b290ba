package fileio

import (
	"context"
	"errors"
	"io"
	"os"
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

func TestLocalPathIsLiteral(t *testing.T) {
	for _, tc := range []struct {
		loc, want string
		ok        bool
	}{
		{"file:///a%20b/s=a%2Fb", "/a%20b/s=a%2Fb", true},
		{"file:///a b/ts=23:59", "/a b/ts=23:59", true},
		{"file:/a b", "/a b", true},
		{"file://localhost/a", "/a", true},
		{"/plain/a b", "/plain/a b", true},
		{"file://host/a", "", false},
		{"file:relative", "", false},
		{"s3://bucket/a", "", false},
	} {
		got, err := LocalPath(tc.loc)
		if (err == nil) != tc.ok || got != filepath.FromSlash(tc.want) {
			t.Errorf("LocalPath(%q) = %q, %v; want %q (ok=%v)", tc.loc, got, err, tc.want, tc.ok)
		}
	}
	uri, err := LocalURI("/x y/z:1/%41")
	if err != nil || uri != "file:///x y/z:1/%41" {
		t.Fatalf("LocalURI = %q, %v", uri, err)
	}
	if loc, err := LocalFileLocation("/x y/z:1/%41"); err != nil || loc != "/x y/z:1/%41" {
		t.Fatalf("LocalFileLocation = %q, %v", loc, err)
	}
}

// TestLocalReadsPercentEncodedLocations: tables written by iceberg-go and
// earlier icesql versions hold percent-encoded locations of files with
// decoded names; they are opened and removed by the decoded path when
// the literal one is missing, but never outside the directory named.
func TestLocalReadsPercentEncodedLocations(t *testing.T) {
	ctx := context.Background()
	l := &Local{NoSync: true}
	dir := t.TempDir()
	old := filepath.Join(dir, "a b", "s=a", "b=c", "f.parquet")
	out, err := l.Create(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	out.Write([]byte("old"))
	out.Close()
	loc := "file://" + filepath.ToSlash(dir) + "/a%20b/s=a%2Fb%3Dc/f.parquet"
	in, err := l.Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	in.Close()
	if err := l.Remove(ctx, loc); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(ctx, old); !errors.Is(err, ErrNotFound) {
		t.Fatalf("legacy file not removed: %v", err)
	}
	// a file literally named with a percent sign wins over the decoded one
	lit := filepath.Join(dir, "p%41")
	for _, p := range []string{lit, filepath.Join(dir, "pA")} {
		out, _ := l.Create(ctx, p)
		out.Write([]byte(filepath.Base(p)))
		out.Close()
	}
	in, err = l.Open(ctx, "file://"+filepath.ToSlash(lit))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(in)
	in.Close()
	if string(b) != "p%41" {
		t.Fatalf("read %q, want the literal file", b)
	}
	// decoding never climbs out of the directory the location names
	outside := filepath.Join(dir, "outside")
	out, _ = l.Create(ctx, outside)
	out.Close()
	climb := "file://" + filepath.ToSlash(dir) + "/t/data/s=..%2F..%2Foutside"
	if _, err := l.Open(ctx, climb); !errors.Is(err, ErrNotFound) {
		t.Fatalf("open of an encoded climb: %v", err)
	}
	if err := l.Remove(ctx, climb); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(ctx, outside); err != nil {
		t.Fatalf("an encoded climb removed a file outside: %v", err)
	}
}

// TestNewFileBase: new files below a file: location are named by the plain
// path of the directory it names, the percent-decoded one only where that
// alone exists (a table of an earlier version at "file:///x%20y" lives in
// "/x y"), so they land beside the table's other files.
func TestNewFileBase(t *testing.T) {
	dir := filepath.ToSlash(t.TempDir())
	if err := os.MkdirAll(dir+"/old table/t", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir+"/lit%41/t", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ loc, want string }{
		{"file://" + dir + "/old%20table/t", dir + "/old table/t"},
		{"file://" + dir + "/lit%41/t/", dir + "/lit%41/t"},
		{"file://" + dir + "/new%20dir", dir + "/new%20dir"},
		{"file:" + dir + "/a b", dir + "/a b"},
		{"file://" + dir + "/..%2F..%2Fx", dir + "/..%2F..%2Fx"},
		{dir + "/plain", dir + "/plain"},
		{"s3://bucket/t", "s3://bucket/t"},
	} {
		if got := NewFileBase(tc.loc); got != tc.want {
			t.Errorf("NewFileBase(%q) = %q, want %q", tc.loc, got, tc.want)
		}
	}
}
