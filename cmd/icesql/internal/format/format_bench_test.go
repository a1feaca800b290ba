package format

import (
	"io"
	"testing"
)

func BenchmarkWrite(b *testing.B) {
	r := &Result{Columns: []string{"id", "name", "score"}}
	for i := range 10000 {
		r.Rows = append(r.Rows, []any{int64(i), "some name", float64(i) / 3})
	}
	for _, f := range Names() {
		b.Run(f, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, Format(f), r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
