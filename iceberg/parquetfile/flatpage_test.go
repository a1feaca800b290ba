package parquetfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// plainNullsSchema has unique values (PLAIN pages) with nulls in every
// fixed-width kind, and a low-cardinality column (dictionary pages).
func plainNullsSchema() *iceberg.Schema {
	return iceberg.MustSchema(0,
		opt(1, "l", iceberg.LongType{}),
		opt(2, "i", iceberg.IntType{}),
		opt(3, "d", iceberg.DoubleType{}),
		opt(4, "f", iceberg.FloatType{}),
		opt(5, "s", iceberg.StringType{}),
		opt(6, "k", iceberg.LongType{}),
	)
}

func plainNullsRecord(t *testing.T, n int) arrow.RecordBatch {
	as, err := arrowschema.ToArrow(plainNullsSchema())
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, as)
	defer rb.Release()
	for i := range n {
		// Null runs of several lengths, some spanning pages.
		null := i%5 == 1 || (i/3000)%4 == 2
		for c := range 6 {
			if null && c != 5 || c == 5 && i%9 == 0 {
				rb.Field(c).AppendNull()
				continue
			}
			switch b := rb.Field(c).(type) {
			case *array.Int64Builder:
				if c == 5 {
					b.Append(int64(i % 7))
				} else {
					b.Append(int64(i)*1_000_003 - 7)
				}
			case *array.Int32Builder:
				b.Append(int32(i*31 - 100))
			case *array.Float64Builder:
				b.Append(float64(i) / 3)
			case *array.Float32Builder:
				b.Append(float32(i) / 7)
			case *array.StringBuilder:
				b.Append(fmt.Sprintf("v%d", i*13))
			}
		}
	}
	return rb.NewRecordBatch()
}

// TestFlatPagesBoundInPlace reads pages bound in place (PLAIN and
// dictionary, with nulls) with batches that straddle page boundaries; the
// row groups are large enough for unique columns to give up their
// dictionary part way.
func TestFlatPagesBoundInPlace(t *testing.T) {
	const n = 100_000
	rec := plainNullsRecord(t, n)
	defer rec.Release()
	s := plainNullsSchema()
	data, _ := writeFile(t, s, WriterOptions{PageSizeBytes: 8 << 10, RowGroupSizeBytes: 1 << 20}, rec)
	for _, ropts := range []ReadOptions{{}, {BatchSize: 777, Concurrency: 1}, {BatchSize: 1 << 16}, {BatchSize: 3000, Concurrency: 8}} {
		t.Run(fmt.Sprintf("batch%d-conc%d", ropts.BatchSize, ropts.Concurrency), func(t *testing.T) {
			ours := readAll(t, data, s, ropts)
			defer ours.Release()
			for i := range s.Fields() {
				got := column(t, ours, i)
				if !array.Equal(got, rec.Column(i)) {
					sameValues(t, s.Fields()[i].Name, rec.Column(i), got)
					t.Fatalf("column %d differs", i)
				}
				got.Release()
			}
		})
	}
}

func TestCheckIndexes(t *testing.T) {
	for _, tc := range []struct {
		name string
		idx  []int32
		size int
		ok   bool
	}{
		{"empty", nil, 0, true},
		{"in-range", []int32{0, 3, 2}, 4, true},
		{"past-end", []int32{0, 4}, 4, false},
		{"negative", []int32{-1}, 4, false},
		{"empty-dictionary", []int32{0}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkIndexes(tc.idx, tc.size)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok %v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("err = %v, not ErrInvalidDataFile", err)
			}
		})
	}
}

func TestCheckOffsets(t *testing.T) {
	for _, tc := range []struct {
		name string
		offs []uint32
		size int
		ok   bool
	}{
		{"single", []uint32{0}, 0, true},
		{"values", []uint32{2, 5, 5, 9}, 9, true},
		{"past-data", []uint32{0, 10}, 9, false},
		{"decreasing", []uint32{0, 5, 4}, 9, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkOffsets(tc.offs, tc.size)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok %v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, iceberg.ErrInvalidDataFile) {
				t.Fatalf("err = %v, not ErrInvalidDataFile", err)
			}
		})
	}
}

// TestPrefetchStopsOnClose: page prefetchers (of the current and the next
// row group) end when the reader is closed part way, and when it is read
// to the end.
func TestPrefetchStopsOnClose(t *testing.T) {
	const n = 30_000
	rec := plainNullsRecord(t, n)
	defer rec.Release()
	s := plainNullsSchema()
	data, m := writeFile(t, s, WriterOptions{PageSizeBytes: 4 << 10, RowGroupSizeBytes: 64 << 10}, rec)
	if len(m.SplitOffsets) < 3 {
		t.Fatalf("want several row groups, got %d", len(m.SplitOffsets))
	}
	r, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, batches := range []int{1, 5, -1} {
		t.Run(fmt.Sprintf("batches%d", batches), func(t *testing.T) {
			base := runtime.NumGoroutine()
			rr, err := r.NewRecordReader(context.Background(), s, ReadOptions{BatchSize: 1000})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; batches < 0 || i < batches; i++ {
				b, err := rr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				b.Release()
			}
			if err := rr.Close(); err != nil {
				t.Fatal(err)
			}
			// Close waits for the prefetchers; give their goroutines the
			// moment they need to return after signalling.
			deadline := time.Now().Add(time.Minute) // a leak never ends; a slow machine only delays
			for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if got := runtime.NumGoroutine(); got > base {
				t.Fatalf("%d goroutines after Close, %d before", got, base)
			}
		})
	}
	// A reader that failed holds no goroutine even when never closed.
	t.Run("failed-unclosed", func(t *testing.T) {
		base := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		rr, err := r.NewRecordReader(ctx, s, ReadOptions{BatchSize: 1000, Concurrency: 4})
		if err != nil {
			t.Fatal(err)
		}
		b, err := rr.Next()
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
		cancel()
		if _, err := rr.Next(); !errors.Is(err, context.Canceled) {
			t.Fatalf("Next after cancel: %v", err)
		}
		deadline := time.Now().Add(time.Minute) // a leak never ends; a slow machine only delays
		for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := runtime.NumGoroutine(); got > base {
			t.Fatalf("%d goroutines after the failure, %d before", got, base)
		}
		rr.Close()
	})
}
