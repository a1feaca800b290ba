package sqlexec_test

import (
	"net/url"
	"path/filepath"
	"testing"
)

// literalPath turns a file:// location into the path of the file it names.
func literalPath(t *testing.T, loc string) string {
	t.Helper()
	u, err := url.Parse(loc)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		t.Fatalf("location %q is not file:///...", loc)
	}
	return filepath.FromSlash(u.Path)
}
