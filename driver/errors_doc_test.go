package driver_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// errorDirs are the packages whose errors a database/sql caller can get
// (the driver's own and everything below it that a statement reaches).
var errorDirs = []string{"driver", "sqlexec", "planner", "iceberg", "catalog"}

// undocumented are exported errors that never reach a database/sql
// caller, with the reason.
var undocumented = map[string]string{
	"datafile.ErrWriterClosed":        "a writer used after Close: a bug, not input",
	"datafile.ErrIteratorClosed":      "an iterator used after Close: a bug, not input",
	"datafile.ErrUnsortedPositions":   "the engine sorts positions before writing",
	"parquetfile.ErrWriterClosed":     "a writer used after Close: a bug, not input",
	"parquetfile.ErrReaderClosed":     "a reader used after Close: a bug, not input",
	"parquetfile.ErrUnknownCodec":     "reached as sqlexec.ErrInvalidStatement or a table property error",
	"parquetfile.ErrCompressionLevel": "reached as a table property error",
	"parquetfile.ErrNoFieldIDs":       "add_files gives a name mapping; reads of table files match iceberg.ErrInvalidDataFile",
	"manifest.ErrInvalidEntry":        "the writer's own input: a bug, not input",
	"manifest.ErrWriterClosed":        "a writer used after Close: a bug, not input",
	"manifest.ErrMissingArgument":     "a writer constructor misused: a bug",
	"puffin.ErrWriterClosed":          "a writer used after Finish: a bug, not input",
	"dv.ErrInvalidPositions":          "the engine sorts positions before encoding",
	"table.ErrTxnDone":                "the engine never reuses a finished transaction",
	"exec.ErrBatchMismatch":           "operators' own batches: a bug, not input",
}

// TestREADMEListsEveryError: README's error table names every exported
// sentinel (Err...) and error type (...Error) of those packages as
// pkg.Name, so the table cannot fall behind the errors.go files.
func TestREADMEListsEveryError(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	if i := strings.Index(section, "## Errors, and what to do with each"); i >= 0 {
		section = section[i:]
		if j := strings.Index(section[3:], "\n## "); j >= 0 {
			section = section[:j+3]
		}
	} else {
		t.Fatal("README has no error section")
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`\*?([a-z][a-z0-9]*)\.([A-Z][A-Za-z]*)`).FindAllStringSubmatch(section, -1) {
		documented[m[1]+"."+m[2]] = true
	}
	fset := token.NewFileSet()
	for _, root := range errorDirs {
		err := filepath.WalkDir(filepath.Join("..", root), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasSuffix(path, "sqlexec/slt") || d.Name() == "catalogtest") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			pkg := f.Name.Name
			if pkg == "main" {
				return nil
			}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range gd.Specs {
					var names []string
					switch s := spec.(type) {
					case *ast.ValueSpec:
						if gd.Tok == token.VAR {
							for _, n := range s.Names {
								if n.IsExported() && strings.HasPrefix(n.Name, "Err") {
									names = append(names, n.Name)
								}
							}
						}
					case *ast.TypeSpec:
						if s.Name.IsExported() && strings.HasSuffix(s.Name.Name, "Error") {
							names = append(names, s.Name.Name)
						}
					}
					for _, n := range names {
						q := pkg + "." + n
						if !documented[q] && undocumented[q] == "" {
							t.Errorf("README's error table does not name %s (%s)", q, path)
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
