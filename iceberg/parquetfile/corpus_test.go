package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/icesql/icesql/iceberg"
)

// sharedDir finds the shared reference corpora: $ICESQL_SHARED, or a
// directory "shared" beside the repository root or one of its parents.
func sharedDir(t *testing.T) string {
	if d := os.Getenv("ICESQL_SHARED"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "shared", "parquet-testing")); err == nil && st.IsDir() {
			return filepath.Join(dir, "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// corpusKnown are the corpus files icesql reads differently from
// arrow-go, each with the reason.
var corpusKnown = map[string]string{
	"data/column_chunk_key_value_metadata.parquet": "parquet-go cannot decode column chunk key/value metadata in the footer",
	"data/map_no_value.parquet":                    "a map without a value column has no Iceberg type",
	"data/nation.dict-malformed.parquet":           "a dictionary page overruns its chunk; refused as corrupt (arrow-go reads past it)",
	"data/null_list.parquet":                       "the Parquet NULL type has no Iceberg type",
	"data/old_list_structure.parquet":              "two-level (legacy) lists are not read",
	"data/repeated_no_annotation.parquet":          "a footer row count of 0 beside 6 rows is refused as corrupt",
	"data/repeated_primitive_no_list.parquet":      "repeated primitive columns (two-level lists) are not read",
}

// TestParquetTestingCorpus reads every file of parquet-testing's data/
// that arrow-go's pqarrow reads, with a name mapping giving each column
// an id by its path, and compares the row count with pqarrow's (and
// reports how many rows render alike: types differ where icesql widens
// to Iceberg types, e.g. INT96 and int8); files of
// bad_data/ must be refused with iceberg.ErrInvalidDataFile (or
// ErrUnsupported), without a panic. It prints one line per file.
func TestParquetTestingCorpus(t *testing.T) {
	shared := sharedDir(t)
	if shared == "" {
		t.Skip("parquet-testing corpus not found: set ICESQL_SHARED or place shared/ beside the repository")
	}
	root := filepath.Join(shared, "parquet-testing")
	var lines []string
	report := func(name, rows, verdict string) {
		lines = append(lines, fmt.Sprintf("%-60s %8s  %s", name, rows, verdict))
	}
	for _, sub := range []string{"data", "bad_data"} {
		paths, _ := filepath.Glob(filepath.Join(root, sub, "*.parquet"))
		sort.Strings(paths)
		for _, p := range paths {
			name := sub + "/" + filepath.Base(p)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			want, werr := pqarrowRows(data)
			got, gerr := icesqlRows(data)
			switch {
			case sub == "bad_data" || strings.Contains(name, "corrupt-checksum"):
				// Files whose page CRCs do not match their bytes are
				// refused: the pages are damaged (arrow-go does not check).
				if gerr == nil {
					t.Errorf("%s: read %d rows, want a refusal", name, len(got))
				} else if !errors.Is(gerr, iceberg.ErrInvalidDataFile) && !errors.Is(gerr, iceberg.ErrUnsupported) {
					t.Errorf("%s: %v, want iceberg.ErrInvalidDataFile", name, gerr)
				}
				report(name, "-", fmt.Sprintf("refused (%v)", short(gerr)))
			case werr != nil:
				report(name, "-", "skip: pqarrow cannot read it ("+short(werr)+")")
			case gerr != nil:
				if why, ok := corpusKnown[name]; ok {
					report(name, "-", "known: "+why)
					continue
				}
				t.Errorf("%s: pqarrow reads %d rows, icesql fails: %v", name, len(want), gerr)
				report(name, fmt.Sprint(len(want)), "icesql: "+short(gerr))
			case len(got) != len(want):
				t.Errorf("%s: %d rows, pqarrow %d", name, len(got), len(want))
				report(name, fmt.Sprint(len(got)), "ROW COUNT DIFFERS")
			default:
				same := 0
				for i := range got {
					if got[i] == want[i] {
						same++
					}
				}
				report(name, fmt.Sprint(len(got)), fmt.Sprintf("ok (%d of %d rows render alike)", same, len(got)))
			}
		}
	}
	t.Logf("parquet-testing corpus:\n%s", strings.Join(lines, "\n"))
}

func short(err error) string {
	s := err.Error()
	if len(s) > 90 {
		s = s[:90] + "..."
	}
	return s
}

// pqarrowRows renders each row as arrow-go reads it.
func pqarrowRows(data []byte) (rows []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	return renderTable(tbl), nil
}

// icesqlRows reads the file as a table would: columns bound through a
// name mapping that numbers them by path.
func icesqlRows(data []byte) ([]string, error) {
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	ids := map[string]int{}
	mapping := func(path []string) (int, bool) {
		k := strings.Join(path, "\x00")
		if _, ok := ids[k]; !ok {
			ids[k] = len(ids) + 1
		}
		return ids[k], true
	}
	s, err := r.Schema(mapping)
	if err != nil {
		return nil, err
	}
	rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{NameMapping: mapping})
	if err != nil {
		return nil, err
	}
	defer rr.Close()
	recs, err := rr.ReadAll()
	if err != nil {
		return nil, err
	}
	tbl := array.NewTableFromRecords(rr.Schema(), recs)
	for _, rec := range recs {
		rec.Release()
	}
	defer tbl.Release()
	return renderTable(tbl), nil
}

func renderTable(tbl arrow.Table) []string {
	rows := make([]string, tbl.NumRows())
	for c := range int(tbl.NumCols()) {
		at := 0
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			for i := range chunk.Len() {
				rows[at] += "|" + chunk.ValueStr(i)
				at++
			}
		}
	}
	return rows
}
