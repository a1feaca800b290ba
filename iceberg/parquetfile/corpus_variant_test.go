package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/internal/corpustest"
)

// TestParquetTestingShreddedVariant reads every case of
// shredded_variant/ (cases.json): a case icesql reads must give, row by
// row, exactly the variant bytes (metadata, then value) of its
// *.variant.bin, shredded or not, and a case the corpus calls an error
// must be refused with iceberg.ErrInvalidDataFile (a
// ShreddedVariantError naming the column). TestParquetTestingCorpus
// reads the same files among the rest of the corpus.
func TestParquetTestingShreddedVariant(t *testing.T) {
	root := corpustest.Dir()
	if root == "" {
		t.Skip(corpustest.SkipMessage)
	}
	cases, err := corpustest.VariantCases(root)
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("parquet-testing has no shredded_variant/cases.json")
	}
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var lines []string
	for _, c := range cases {
		_, verdict := variantVerdict(t, root, c)
		count[strings.SplitN(verdict, " ", 2)[0]]++
		lines = append(lines, fmt.Sprintf("case %-4d %-28s %s", c.Number, c.ParquetFile, verdict))
	}
	t.Logf("shredded_variant (%d ok, %d skipped, %d refused):\n%s", count["ok"], count["skipped"], count["refused"], strings.Join(lines, "\n"))
	if count["ok"]+count["refused"] != len(cases)-count["skipped"] {
		t.Errorf("cases neither read alike nor refused as the corpus says: %v", count)
	}
}

// variantVerdict reads one case and returns its row count and verdict;
// a wrong value, a read of an error case or a refusal of a valid case
// fails t.
func variantVerdict(t *testing.T, root string, c corpustest.VariantCase) (string, string) {
	if c.ParquetFile == "" {
		return "-", "skipped (the case names no file)"
	}
	data, err := os.ReadFile(filepath.Join(root, corpustest.VariantDir, c.ParquetFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := variantColumn(data)
	switch {
	case c.Error != "":
		if err == nil {
			t.Errorf("%s: read, the corpus says %q", c.ParquetFile, c.Error)
			return fmt.Sprint(len(got)), "DIFFERS (read an invalid variant)"
		}
		var se *ShreddedVariantError
		if !errors.Is(err, iceberg.ErrInvalidDataFile) || !errors.As(err, &se) {
			t.Errorf("%s: %v, want a ShreddedVariantError (the corpus says %q)", c.ParquetFile, err, c.Error)
		}
		return "-", "refused (" + short(err) + ")"
	case err != nil:
		t.Errorf("%s: %v", c.ParquetFile, err)
		return "-", "DIFFERS (" + short(err) + ")"
	}
	want, err := c.Expected(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, the corpus has %d", c.ParquetFile, len(got), len(want))
		return fmt.Sprint(len(got)), "DIFFERS (row count)"
	}
	for i := range want {
		if (want[i] == nil) != (got[i] == nil) || !bytes.Equal(got[i], want[i]) {
			t.Errorf("%s row %d: variant %x, want %x", c.ParquetFile, i, got[i], want[i])
			return fmt.Sprint(len(got)), fmt.Sprintf("DIFFERS (row %d)", i)
		}
	}
	if c.Notes != "" {
		return fmt.Sprint(len(got)), "ok (an invalid file the corpus lets readers read: read as the shredded value)"
	}
	return fmt.Sprint(len(got)), "ok"
}

// variantColumn reads the file's "var" column with icesql's reader and
// returns each row's variant as metadata bytes followed by value bytes
// (nil for NULL), the form of the corpus's *.variant.bin.
func variantColumn(data []byte) ([][]byte, error) {
	tbl, err := readByPath(data)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	col := -1
	for i, f := range tbl.Schema().Fields() {
		if f.Name == "var" {
			col = i
		}
	}
	if col < 0 {
		return nil, fmt.Errorf("%w: no column var", iceberg.ErrInvalidDataFile)
	}
	var out [][]byte
	for _, chunk := range tbl.Column(col).Data().Chunks() {
		st, ok := chunk.(array.ExtensionArray)
		if !ok {
			return nil, errors.New("var is not a variant extension array")
		}
		s, ok := st.Storage().(*array.Struct)
		if !ok {
			return nil, errors.New("variant storage is not a struct")
		}
		meta, value := binaryField(s, "metadata"), binaryField(s, "value")
		if meta == nil || value == nil {
			return nil, errors.New("variant storage lacks metadata or value")
		}
		for i := range chunk.Len() {
			// arrow-go's variant arrays report a variant null as null too:
			// the storage tells SQL NULL
			if s.IsNull(i) {
				out = append(out, nil)
				continue
			}
			out = append(out, append(append([]byte{}, meta.Value(i)...), value.Value(i)...))
		}
	}
	return out, nil
}

func binaryField(s *array.Struct, name string) *array.Binary {
	st := s.DataType().(*arrow.StructType)
	for i, f := range st.Fields() {
		if f.Name == name {
			b, _ := s.Field(i).(*array.Binary)
			return b
		}
	}
	return nil
}
