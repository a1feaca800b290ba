package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/icesql/icesql/iceberg"
)

// TestDictionaryFieldIDs: a string column read as dictionary arrays
// holds, row by row, the values (and nulls) of the plain read, over
// nulls, empty strings, pages of nulls only, several row groups (each
// its own dictionary), a dictionary that falls back to PLAIN pages
// mid-chunk and a field missing from the file. Batches of dictionary
// pages must share their chunk's dictionary (not an identity one).
func TestDictionaryFieldIDs(t *testing.T) {
	small := func(i int) (string, bool) {
		switch {
		case i%11 == 0:
			return "", false
		case i%7 == 0:
			return "", true
		case i >= 3000 && i < 3400:
			return "", false // pages of nulls only
		}
		return fmt.Sprintf("v%d", i%5), true
	}
	large := func(i int) (string, bool) { return fmt.Sprintf("%097d", i%2000), i%13 != 0 }
	// A dictionary that overflows after the writer's first 1,024 rows.
	growing := func(i int) (string, bool) {
		if i < 4000 {
			return fmt.Sprintf("%097d", i%10), i%13 != 0
		}
		return fmt.Sprintf("%097d", i), i%13 != 0
	}
	for _, tc := range []struct {
		name       string
		value      func(int) (string, bool)
		opts       WriterOptions
		wantShared bool
	}{
		{"small", small, WriterOptions{RowGroupRowLimit: 2500, PageRowLimit: 300}, true},
		{"fallback", growing, WriterOptions{DictSizeBytes: 64 << 10, PageSizeBytes: 16 << 10}, true},
		{"plain", large, WriterOptions{DictSizeBytes: 1}, false},
		// Dictionary-encoded, but with an entry for most rows: read as
		// strings (identity dictionaries), which is cheaper for everyone.
		{"ids", func(i int) (string, bool) { return fmt.Sprintf("u%d", i*7%20000), i%13 != 0 },
			WriterOptions{RowGroupRowLimit: 2500, DictSizeBytes: 1 << 20}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, rec := stringColumn(t, 20000, tc.value)
			defer rec.Release()
			data, _ := writeFile(t, s, tc.opts, rec)
			for _, conc := range []int{1, 2} {
				plain := readColumn(t, data, s, ReadOptions{BatchSize: 100, Concurrency: conc})
				var shared bool
				dict := readColumn(t, data, s, ReadOptions{BatchSize: 100, Concurrency: conc, DictionaryFieldIDs: []int{1}}, func(d *array.Dictionary) {
					if d.Dictionary().Len() != d.Len() || d.Len() < 5 {
						shared = true
					}
				})
				if len(plain) != 20000 || len(dict) != len(plain) {
					t.Fatalf("read %d and %d rows, want 20000", len(plain), len(dict))
				}
				for i := range plain {
					want, wok := tc.value(i)
					if !wok {
						want = ""
					}
					if plain[i] != dict[i] || plain[i] != fmt.Sprint(want, wok) {
						t.Fatalf("row %d: plain %q, dictionary %q, want %q", i, plain[i], dict[i], fmt.Sprint(want, wok))
					}
				}
				if shared != tc.wantShared {
					t.Fatalf("batches sharing a dictionary: %v, want %v", shared, tc.wantShared)
				}
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		s, rec := stringColumn(t, 100, func(i int) (string, bool) { return "x", true })
		defer rec.Release()
		data, _ := writeFile(t, s, WriterOptions{}, rec)
		proj := iceberg.MustSchema(0, opt(1, "s", iceberg.StringType{}), opt(2, "c", iceberg.StringType{}))
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		rr, err := r.NewRecordReader(context.Background(), proj, ReadOptions{DictionaryFieldIDs: []int{2}, Constants: map[int]any{2: "k"}})
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Close()
		b, err := rr.Next()
		if err != nil {
			t.Fatal(err)
		}
		defer b.Release()
		d, ok := b.Column(1).(*array.Dictionary)
		if !ok || !arrow.TypeEqual(rr.Schema().Field(1).Type, DictionaryString) || b.Column(0).DataType().ID() != arrow.STRING {
			t.Fatalf("columns %s, %s", b.Column(0).DataType(), b.Column(1).DataType())
		}
		if d.Len() != 100 || d.Dictionary().(*array.String).Value(d.GetValueIndex(99)) != "k" {
			t.Fatalf("constant column reads %v", d)
		}
	})
}

// readColumn reads column 0 of data as "value bool" strings (bool false
// for null), visiting each dictionary batch.
func readColumn(t *testing.T, data []byte, s *iceberg.Schema, opts ReadOptions, visit ...func(*array.Dictionary)) []string {
	t.Helper()
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rr, err := r.NewRecordReader(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	var out []string
	for {
		b, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		switch c := b.Column(0).(type) {
		case *array.String:
			for i := range c.Len() {
				out = append(out, fmt.Sprint(c.Value(i), c.IsValid(i)))
			}
		case *array.Dictionary:
			for _, v := range visit {
				v(c)
			}
			vals := c.Dictionary().(*array.String)
			for i := range c.Len() {
				if c.IsNull(i) {
					out = append(out, fmt.Sprint("", false))
					continue
				}
				out = append(out, fmt.Sprint(vals.Value(c.GetValueIndex(i)), true))
			}
		default:
			t.Fatalf("column of type %s", c.DataType())
		}
		b.Release()
	}
}
