package corpustest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// VariantDir is the corpus directory of shredded variant cases.
const VariantDir = "shredded_variant"

// VariantCase is one entry of shredded_variant/cases.json: a Parquet file
// of rows (id, var) and either the variants its rows hold (a
// *.variant.bin per row, nil for a SQL NULL) or an error a reader must
// give.
type VariantCase struct {
	Number       int       `json:"case_number"`
	Test         string    `json:"test"`
	ParquetFile  string    `json:"parquet_file"`
	VariantFile  string    `json:"variant_file"`
	VariantFiles []*string `json:"variant_files"`
	Error        string    `json:"error_message"`
	Notes        string    `json:"notes"`
}

// VariantCases reads shredded_variant/cases.json under the corpus root;
// os.ErrNotExist when the corpus has none.
func VariantCases(root string) ([]VariantCase, error) {
	raw, err := os.ReadFile(filepath.Join(root, VariantDir, "cases.json"))
	if err != nil {
		return nil, err
	}
	var cases []VariantCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		return nil, err
	}
	return cases, nil
}

// VariantCaseOf returns the case of a corpus file name (as Files names
// it: shredded_variant/case-001.parquet).
func VariantCaseOf(cases []VariantCase, name string) (VariantCase, bool) {
	if !strings.HasPrefix(name, VariantDir+"/") {
		return VariantCase{}, false
	}
	base := strings.TrimPrefix(name, VariantDir+"/")
	for _, c := range cases {
		if c.ParquetFile == base {
			return c, true
		}
	}
	return VariantCase{}, false
}

// Expected returns the case's variants row by row, each as the bytes of
// its *.variant.bin (metadata, then value), nil for a SQL NULL.
func (c VariantCase) Expected(root string) ([][]byte, error) {
	files := c.VariantFiles
	if c.VariantFile != "" {
		files = []*string{&c.VariantFile}
	}
	out := make([][]byte, len(files))
	for i, f := range files {
		if f == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, VariantDir, *f))
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// SplitVariant splits a variant's bytes (metadata followed by value, the
// form of a *.variant.bin) into metadata and value, by the metadata's
// header, dictionary size and last offset.
func SplitVariant(b []byte) (meta, value []byte, err error) {
	if len(b) == 0 || b[0]&0x0F != 1 {
		return nil, nil, errors.New("not variant metadata of version 1")
	}
	size := int(b[0]>>6) + 1
	read := func(at int) (int, bool) {
		if at+size > len(b) {
			return 0, false
		}
		v := 0
		for k := range size {
			v |= int(b[at+k]) << (8 * k)
		}
		return v, true
	}
	n, ok := read(1)
	if !ok || n > len(b) {
		return nil, nil, errors.New("metadata truncated")
	}
	last, ok := read(1 + size + n*size)
	end := 1 + size + (n+1)*size + last
	if !ok || end >= len(b) {
		return nil, nil, fmt.Errorf("metadata of %d bytes leaves no value in %d", end, len(b))
	}
	return b[:end], b[end:], nil
}

// VariantValue renders a variant (metadata followed by value; nil for
// NULL) as Value renders a variant extension array's row: its storage
// struct of metadata and value.
func VariantValue(b []byte) (string, error) {
	if b == nil {
		return "null", nil
	}
	meta, value, err := SplitVariant(b)
	if err != nil {
		return "", err
	}
	return "{" + Bytes(meta) + ", " + Bytes(value) + "}", nil
}
