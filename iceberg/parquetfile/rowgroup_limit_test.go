package parquetfile

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// Row groups are cut at RowGroupRowLimit rows exactly, whatever the
// batches' sizes, so that statistics prune selective scans; -1 leaves
// the cut to the byte target alone.
func TestRowGroupRowLimit(t *testing.T) {
	s := allTypesSchema()
	rec := randomRecord(s, 2500, 7)
	defer rec.Release()
	batches := []int{0, 333, 1700, 2500}
	for _, tc := range []struct {
		name  string
		limit int64
		want  []int64
	}{
		{"cap", 1000, []int64{1000, 1000, 500}},
		{"cap of one", 1, nil}, // 2500 groups of one row
		{"none", -1, []int64{2500}},
		{"default", 0, []int64{800, 800, 800, 100}}, // DefaultRowGroupRowLimit, set to 800 below
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.limit == 0 {
				old := DefaultRowGroupRowLimit
				DefaultRowGroupRowLimit = 800
				defer func() { DefaultRowGroupRowLimit = old }()
			}
			var buf bytes.Buffer
			w, err := NewWriter(&buf, s, WriterOptions{RowGroupRowLimit: tc.limit, Compression: "snappy"})
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(batches); i++ {
				part := rec.NewSlice(int64(batches[i-1]), int64(batches[i]))
				err := w.Write(part)
				part.Release()
				if err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, rg := range r.file.Metadata().RowGroups {
				got = append(got, rg.NumRows)
			}
			want := tc.want
			if want == nil {
				for range 2500 {
					want = append(want, 1)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("row groups of %v rows, want %v", got, want)
			}
			tbl := readWithPqarrow(t, buf.Bytes())
			defer tbl.Release()
			if tbl.NumRows() != 2500 {
				t.Fatalf("pqarrow reads %d rows", tbl.NumRows())
			}
		})
	}
}

func TestRowGroupRowLimitProperty(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int64
		bad   bool
	}{
		{"500", 500, false},
		{"-1", -1, false},
		{"0", 0, true},
		{"-2", 0, true},
		{"many", 0, true},
	} {
		o, err := OptionsFromProperties(map[string]string{PropRowGroupRowLimit: tc.value})
		if tc.bad != (err != nil) || !tc.bad && o.RowGroupRowLimit != tc.want {
			t.Errorf("%s: %d, %v", tc.value, o.RowGroupRowLimit, err)
		}
		verr := iceberg.ValidateProperty(PropRowGroupRowLimit, tc.value)
		if tc.bad != (verr != nil) || tc.bad && !errors.Is(verr, iceberg.ErrInvalidMetadata) {
			t.Errorf("ValidateProperty(%s): %v", tc.value, verr)
		}
	}
}
