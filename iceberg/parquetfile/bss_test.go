package parquetfile

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
)

// TestDecodeByteStreamSplit joins the streams parquet-go's encoder splits,
// for every width (4 and 8 take the word paths) and counts around the
// 8-value groups.
func TestDecodeByteStreamSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, width := range []int{1, 3, 4, 8, 16} {
		for _, n := range []int{0, 1, 7, 8, 9, 1001} {
			plain := make([]byte, n*width)
			for i := range plain {
				plain[i] = byte(r.Uint32())
			}
			src, err := new(bytestreamsplit.Encoding).EncodeFixedLenByteArray(nil, plain, width)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, n*width)
			if err := decodeByteStreamSplit(src, n, width, got); err != nil {
				t.Fatalf("width %d, %d values: %v", width, n, err)
			}
			if !bytes.Equal(got, plain) {
				t.Fatalf("width %d, %d values: bytes differ", width, n)
			}
		}
	}
}

func TestDecodeByteStreamSplitErrors(t *testing.T) {
	cases := []struct {
		name     string
		src      int
		n, width int
	}{
		{"short", 15, 4, 4},
		{"long", 17, 4, 4},
		{"zero width", 0, 4, 0},
		{"values without bytes", 0, 1 << 24, 8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := decodeByteStreamSplit(make([]byte, tc.src), tc.n, tc.width, nil); err == nil {
				t.Fatal("no error")
			}
		})
	}
}
