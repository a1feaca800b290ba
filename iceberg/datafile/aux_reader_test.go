package datafile

import (
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg/expr"
	"github.com/icesql/icesql/iceberg/parquetfile"
	"github.com/icesql/icesql/iceberg/scan"
)

// Columns read only for an equality delete or the residual come from a
// second reader; its records must hold the main reader's rows even where
// the pages of its columns end on other rows than the projected ones
// (long strings cut pages sooner than longs).
func TestAuxReaderStaysInStep(t *testing.T) {
	tt := newTestTable(t, testSchema(), nil, nil)
	long := "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	r := testRows(t, testSchema(), 0, 60000, []string{"a", long, "cc"})
	defer r.Release()
	f := writeAll(t, tt, WriterOptions{Parquet: &parquetfile.WriterOptions{PageSizeBytes: 50000, Compression: "uncompressed"}}, r)[0]
	eq := writeEqualityDeletes(t, tt, "a")
	schema := tt.meta.CurrentSchema()
	idOnly, _ := schema.Select(1)
	cc, err := expr.Bind(schema, expr.NotEq("category", "cc"), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		task scan.FileScanTask
		drop func(i int) bool
	}{
		{"equality delete", scan.FileScanTask{File: f, DataSequenceNumber: 1, Deletes: []scan.DeleteFile{{File: eq, DataSequenceNumber: 2}}},
			func(i int) bool { return i%3 == 0 }},
		{"residual", scan.FileScanTask{File: f, Residual: cc}, func(i int) bool { return i%3 == 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := readAll(t, tt, tc.task, idOnly, ReadOptions{WithPositions: true})
			want := seqInts(0, 60000, tc.drop)
			if got := int64Column(t, recs, "id"); !slices.Equal(got, want) {
				t.Errorf("%d ids, want %d", len(got), len(want))
			}
			if got := int64Column(t, recs, PosColumnName); !slices.Equal(got, want) {
				t.Errorf("%d positions, want %d", len(got), len(want))
			}
		})
	}
}
