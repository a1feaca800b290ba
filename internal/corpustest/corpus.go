// Package corpustest walks the Parquet project's cross-implementation
// files (parquet-testing) for tests, and renders rows in one canonical
// text form so that values read by arrow-go's pqarrow, by icesql's own
// Parquet reader and through database/sql can be compared.
package corpustest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Dir returns the parquet-testing checkout: $ICESQL_SHARED/parquet-testing,
// or shared/parquet-testing in the working directory or one of its
// parents (the repository's tests find ../shared beside the checkout).
// It returns "" when there is none.
func Dir() string {
	if d := os.Getenv("ICESQL_SHARED"); d != "" {
		return filepath.Join(d, "parquet-testing")
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "shared", "parquet-testing")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// SkipMessage is what a test says when Dir finds no corpus.
const SkipMessage = "parquet-testing corpus not found: set ICESQL_SHARED to a directory holding parquet-testing/, or place shared/parquet-testing beside the repository"

// File is one Parquet file of the corpus.
type File struct {
	Name string // relative to the corpus root, with forward slashes
	Path string
}

// Files lists the corpus's Parquet files (every *.parquet and
// *.parquet.encrypted under data/ and bad_data/, subdirectories
// included; shredded_variant/ when variants is set), sorted by name.
func Files(root string, variants bool) ([]File, error) {
	var out []File
	subs := []string{"data", "bad_data"}
	if variants {
		subs = append(subs, "shredded_variant")
	}
	for _, sub := range subs {
		err := filepath.WalkDir(filepath.Join(root, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if d.IsDir() || !(strings.HasSuffix(p, ".parquet") || strings.HasSuffix(p, ".parquet.encrypted")) {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, File{Name: filepath.ToSlash(rel), Path: p})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Encrypted reports whether a corpus file is an encrypted Parquet file by
// its name (the corpus names them so; the readers tell by their bytes).
func Encrypted(name string) bool {
	return strings.Contains(filepath.Base(name), "encrypt")
}

// Bad reports whether a corpus file is one of bad_data/ or has pages
// whose checksums do not match their bytes: readers must refuse them.
func Bad(name string) bool {
	return strings.HasPrefix(name, "bad_data/") || strings.Contains(name, "corrupt-checksum")
}
