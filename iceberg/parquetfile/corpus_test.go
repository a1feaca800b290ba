package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/corpustest"
)

// corpusSkip are the corpus files icesql reads differently from arrow-go
// (or refuses while arrow-go reads them), each with the reason. Any other
// file that differs fails the test.
var corpusSkip = map[string]string{
	"data/column_chunk_key_value_metadata.parquet": "parquet-go cannot decode column chunk key/value metadata in the footer",
	"data/nation.dict-malformed.parquet":           "a dictionary page overruns its chunk; refused as corrupt (arrow-go reads past it)",
}

// corpusRefuse are the well-formed corpus files icesql refuses, each
// with the check of its refusal: crs-arbitrary-value.parquet gives its
// CRS inline as PROJJSON, which no Iceberg type string can hold.
var corpusRefuse = map[string]func(error) bool{
	"data/geospatial/crs-arbitrary-value.parquet": func(err error) bool {
		var e *InlineCRSError
		return errors.As(err, &e) && e.Column != "" && errors.Is(err, iceberg.ErrUnsupported)
	},
}

// corpusExpect are the rows the corpus's own descriptions (data/*.md)
// state for files whose values they give, in corpustest's plain form
// (NULL as "").
var corpusExpect = map[string][]string{
	// int96_from_spark.md: microseconds since the epoch; INT96 is an
	// instant (Spark's TimestampType), read as timestamptz as Java does.
	"data/int96_from_spark.parquet": {
		"2024-01-01T20:34:56.123456Z", "2024-01-01T01:00:00Z", "9999-12-31T03:00:00Z",
		"2024-12-30T23:00:00Z", "", micros(9089380393200000000),
	},
	// old_list_structure.md: one row, [[1, 2], [3, 4]].
	"data/old_list_structure.parquet": {"[[1, 2], [3, 4]]"},
}

func micros(us int64) string {
	return corpustest.Timestamp(time.UnixMicro(us), true)
}

// TestParquetTestingCorpus reads every Parquet file of parquet-testing
// with icesql's reader (columns bound by a name mapping that numbers them
// by path) and compares every value of every row with arrow-go's pqarrow
// and with the rows the corpus states (*_expect.csv beside a file, the
// values given in data/*.md; for shredded_variant/, each row's variant
// byte for byte with its *.variant.bin, and the cases cases.json calls
// errors must be refused, see variantVerdict); a file that differs fails unless
// corpusSkip names it. Files of bad_data/ and those with corrupt page
// checksums must be refused with iceberg.ErrInvalidDataFile, encrypted
// files with ErrEncrypted, all without a panic. It logs one line per
// file: name, rows, verdict.
func TestParquetTestingCorpus(t *testing.T) {
	root := corpustest.Dir()
	if root == "" {
		t.Skip(corpustest.SkipMessage)
	}
	files, err := corpustest.Files(root, true)
	if err != nil {
		t.Fatal(err)
	}
	vcases, err := corpustest.VariantCases(root)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var lines []string
	count := map[string]int{}
	report := func(name, rows, verdict string) {
		count[strings.SplitN(verdict, " ", 2)[0]]++
		lines = append(lines, fmt.Sprintf("%-66s %6s  %s", name, rows, verdict))
	}
	for _, f := range files {
		name := f.Name
		if c, ok := corpustest.VariantCaseOf(vcases, name); ok {
			// a shredded_variant case: its *.variant.bin or its error
			rows, verdict := variantVerdict(t, root, c)
			report(name, rows, verdict)
			continue
		}
		if strings.HasPrefix(name, corpustest.VariantDir+"/") {
			t.Errorf("%s: no case of shredded_variant/cases.json names it", name)
			continue
		}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		got, gerr := icesqlRows(data)
		switch {
		case corpustest.Encrypted(name):
			if !errors.Is(gerr, ErrEncrypted) {
				t.Errorf("%s: %v, want ErrEncrypted", name, gerr)
			}
			report(name, "-", "refused ("+short(gerr)+")")
			continue
		case corpustest.Bad(name):
			if gerr == nil {
				t.Errorf("%s: read %d rows, want a refusal", name, len(got))
			} else if !errors.Is(gerr, iceberg.ErrInvalidDataFile) {
				t.Errorf("%s: %v, want iceberg.ErrInvalidDataFile", name, gerr)
			}
			report(name, "-", "refused ("+short(gerr)+")")
			continue
		}
		if refused, ok := corpusRefuse[name]; ok {
			if !refused(gerr) {
				t.Errorf("%s: %v, not the refusal corpusRefuse names", name, gerr)
			}
			report(name, "-", "refused ("+short(gerr)+")")
			continue
		}
		want, werr := corpustest.Pqarrow(data)
		if dev, ok := corpustest.PqarrowDeviations[name]; ok && werr == nil {
			// pqarrow reads it otherwise than the format's rules: check
			// that it still does, and compare with the rules' rows
			if d := rowsDiff("the stated pqarrow rows", want, dev.Pqarrow); d != "" {
				t.Errorf("%s: pqarrow no longer reads it as corpustest.PqarrowDeviations says (%s)", name, d)
			}
			want = dev.Want
		}
		expect, source := corpusExpectation(t, f)
		if werr != nil && expect == nil {
			if gerr == nil {
				report(name, fmt.Sprint(len(got)), "skipped (pqarrow cannot read it: "+short(werr)+"; icesql reads it)")
			} else {
				report(name, "-", "skipped (pqarrow cannot read it: "+short(werr)+")")
			}
			continue
		}
		diff := ""
		switch {
		case gerr != nil:
			diff = "icesql: " + gerr.Error()
		case werr == nil:
			diff = rowsDiff("pqarrow", got, want)
		}
		if diff == "" && expect != nil {
			diff = rowsDiff(source, corpustest.Plain(got, len(expect[0])), expect)
		}
		if diff == "" {
			if _, ok := corpusSkip[name]; ok {
				t.Errorf("%s reads alike now: remove it from corpusSkip", name)
			}
			verdict := "ok"
			if _, ok := corpustest.PqarrowDeviations[name]; ok {
				verdict = "ok (as LogicalTypes.md reads it; pqarrow reads it otherwise)"
			}
			report(name, fmt.Sprint(len(got)), verdict)
			continue
		}
		if why, ok := corpusSkip[name]; ok {
			report(name, "-", "skipped ("+why+")")
			t.Logf("%s (skipped): %s", name, short(errors.New(diff)))
			continue
		}
		t.Errorf("%s: %s", name, diff)
		report(name, fmt.Sprint(len(got)), "DIFFERS ("+short(errors.New(diff))+")")
	}
	t.Logf("parquet-testing corpus (%d ok, %d skipped, %d refused):\n%s", count["ok"], count["skipped"], count["refused"], strings.Join(lines, "\n"))
}

// corpusExpectation returns the rows the corpus states for a file, split
// into their columns, and where they come from (nil if it states none).
func corpusExpectation(t *testing.T, f corpustest.File) ([][]string, string) {
	if rows, ok := corpusExpect[f.Name]; ok {
		out := make([][]string, len(rows))
		for i, r := range rows {
			out[i] = []string{r}
		}
		return out, "the corpus's .md"
	}
	csvPath := strings.TrimSuffix(f.Path, ".parquet") + "_expect.csv"
	rows, err := corpustest.ExpectCSV(csvPath)
	if os.IsNotExist(err) {
		return nil, ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return rows, filepath.Base(csvPath)
}

// rowsDiff describes the first difference between got and want rows.
func rowsDiff(source string, got, want [][]string) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, %s has %d", len(got), source, len(want))
	}
	for i := range got {
		if !slices.Equal(got[i], want[i]) {
			return fmt.Sprintf("row %d is %s, %s has %s", i, strings.Join(got[i], " | "), source, strings.Join(want[i], " | "))
		}
	}
	return ""
}

func short(err error) string {
	s := err.Error()
	if len(s) > 90 {
		s = s[:90] + "..."
	}
	return s
}

// icesqlRows reads the file as a table would: columns bound through a
// name mapping that numbers them by path.
func icesqlRows(data []byte) ([][]string, error) {
	tbl, err := readByPath(data)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	return corpustest.Table(tbl), nil
}

// readByPath reads the whole file with icesql's reader, its columns bound
// through a name mapping that numbers them by path.
func readByPath(data []byte) (arrow.Table, error) {
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
	return tbl, nil
}
