package parquetfile

import (
	"bytes"
	"encoding/json"
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

// variantCase is one entry of parquet-testing's shredded_variant/cases.json.
type variantCase struct {
	Number       int       `json:"case_number"`
	ParquetFile  string    `json:"parquet_file"`
	VariantFile  string    `json:"variant_file"`
	VariantFiles []*string `json:"variant_files"`
	Error        string    `json:"error_message"`
}

// TestParquetTestingShreddedVariant reads every case of
// shredded_variant/: a case icesql reads must give, row by row, exactly
// the variant bytes (metadata, then value) of its *.variant.bin, and a
// case the corpus calls an error must not read. Shredded variants (a
// typed_value beside the value) are not read yet: those cases are
// skipped with that reason, and any other refusal fails.
func TestParquetTestingShreddedVariant(t *testing.T) {
	root := corpustest.Dir()
	if root == "" {
		t.Skip(corpustest.SkipMessage)
	}
	dir := filepath.Join(root, "shredded_variant")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if os.IsNotExist(err) {
		t.Skip("parquet-testing has no shredded_variant/cases.json")
	}
	if err != nil {
		t.Fatal(err)
	}
	var cases []variantCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var lines []string
	for _, c := range cases {
		verdict := variantVerdict(t, dir, c)
		count[strings.SplitN(verdict, " ", 2)[0]]++
		lines = append(lines, fmt.Sprintf("case %-4d %-28s %s", c.Number, c.ParquetFile, verdict))
	}
	t.Logf("shredded_variant (%d ok, %d skipped, %d refused):\n%s", count["ok"], count["skipped"], count["refused"], strings.Join(lines, "\n"))
}

func variantVerdict(t *testing.T, dir string, c variantCase) string {
	if c.ParquetFile == "" {
		return "skipped (the case names no file)"
	}
	data, err := os.ReadFile(filepath.Join(dir, c.ParquetFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := variantColumn(data)
	switch {
	case err != nil && strings.Contains(err.Error(), "is a shredded variant"):
		return "skipped (shredded variant not yet supported)"
	case c.Error != "":
		if err == nil {
			t.Errorf("%s: read, the corpus says %q", c.ParquetFile, c.Error)
			return "DIFFERS (read an invalid variant)"
		}
		return "refused (" + short(err) + ")"
	case err != nil:
		t.Errorf("%s: %v", c.ParquetFile, err)
		return "DIFFERS (" + short(err) + ")"
	}
	files := c.VariantFiles
	if c.VariantFile != "" {
		files = []*string{&c.VariantFile}
	}
	if len(got) != len(files) {
		t.Errorf("%s: %d rows, the corpus has %d", c.ParquetFile, len(got), len(files))
		return "DIFFERS (row count)"
	}
	for i, f := range files {
		var want []byte
		if f != nil {
			if want, err = os.ReadFile(filepath.Join(dir, *f)); err != nil {
				t.Fatal(err)
			}
		}
		if (want == nil) != (got[i] == nil) || !bytes.Equal(got[i], want) {
			t.Errorf("%s row %d: variant %x, want %x", c.ParquetFile, i, got[i], want)
			return fmt.Sprintf("DIFFERS (row %d)", i)
		}
	}
	return "ok"
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
