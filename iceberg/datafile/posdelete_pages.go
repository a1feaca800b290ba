package datafile

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

type parquetStats = format.Statistics

// matchingRows finds the rows [from, to) of a row group whose file_path is
// dataPath (contiguous, as the file is sorted); past reports that a larger
// path was seen, so later row groups cannot match.
func matchingRows(cc parquet.ColumnChunk, col *parquet.Column, dataPath string, numRows int64) (from, to int64, past bool, err error) {
	want := []byte(dataPath)
	var prev []byte
	var dec byteArrayDecoder
	err = pageRows(cc, col, numRows, func(first int64, p parquet.Page) (bool, error) {
		get, n, err := dec.values(p)
		if err != nil {
			return false, err
		}
		for i := 0; i < n; i++ {
			v := get(i)
			if prev != nil && bytes.Compare(v, prev) < 0 {
				return false, errors.New("rows are not sorted by file_path")
			}
			prev = append(prev[:0], v...)
			switch c := bytes.Compare(v, want); {
			case c == 0:
				if to == 0 {
					from = first + int64(i)
				}
				to = first + int64(i) + 1
			case c > 0:
				past = true
				return false, nil
			}
		}
		return true, nil
	})
	return from, to, past, err
}

// positionsIn appends the pos values of rows [from, to).
func positionsIn(cc parquet.ColumnChunk, col *parquet.Column, from, to, numRows int64, out []int64) ([]int64, error) {
	err := pageRows(cc, col, numRows, func(first int64, p parquet.Page) (bool, error) {
		n := p.NumValues()
		if first+n <= from {
			return true, nil
		}
		vals, err := int64Values(p)
		if err != nil {
			return false, err
		}
		for i := max(from-first, 0); i < n && first+i < to; i++ {
			if vals[i] < 0 {
				return false, fmt.Errorf("negative position %d", vals[i])
			}
			out = append(out, vals[i])
		}
		return first+n < to, nil
	})
	return out, err
}

// byteArrayDecoder reads BYTE_ARRAY pages, plain or dictionary encoded,
// checking offsets and indexes; it remembers the last checked dictionary.
type byteArrayDecoder struct {
	dictData []byte
	dictOffs []uint32
}

func (d *byteArrayDecoder) values(p parquet.Page) (func(int) []byte, int, error) {
	n := int(p.NumValues())
	if dict := p.Dictionary(); dict != nil {
		dv := dict.Page().Data()
		data, offs := dv.ByteArray()
		if !sameBacking(offs, d.dictOffs) {
			if err := checkOffsets(data, offs, dict.Len()); err != nil {
				return nil, 0, fmt.Errorf("dictionary: %w", err)
			}
			d.dictData, d.dictOffs = data, offs
		}
		pd := p.Data()
		idx := pd.Int32()
		if len(idx) != n {
			return nil, 0, fmt.Errorf("page has %d dictionary indexes for %d values", len(idx), n)
		}
		size := int32(len(d.dictOffs) - 1)
		for _, i := range idx {
			if i < 0 || i >= size {
				return nil, 0, fmt.Errorf("dictionary index %d out of range (%d entries)", i, size)
			}
		}
		return func(i int) []byte { k := idx[i]; return d.dictData[d.dictOffs[k]:d.dictOffs[k+1]] }, n, nil
	}
	pd := p.Data()
	data, offs := pd.ByteArray()
	if n == 0 {
		return nil, 0, nil
	}
	if err := checkOffsets(data, offs, n); err != nil {
		return nil, 0, err
	}
	return func(i int) []byte { return data[offs[i]:offs[i+1]] }, n, nil
}

// checkOffsets validates n+1 non-decreasing offsets into data.
func checkOffsets(data []byte, offs []uint32, n int) error {
	if len(offs) != n+1 {
		return fmt.Errorf("%d byte array offsets for %d values", len(offs), n)
	}
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1] || int(offs[i]) > len(data) {
			return fmt.Errorf("byte array offset %d out of range", offs[i])
		}
	}
	return nil
}

// int64Values decodes an INT64 page, plain or dictionary encoded.
func int64Values(p parquet.Page) ([]int64, error) {
	n := int(p.NumValues())
	if dict := p.Dictionary(); dict != nil {
		dv, pd := dict.Page().Data(), p.Data()
		vals, idx := dv.Int64(), pd.Int32()
		if len(idx) != n {
			return nil, fmt.Errorf("page has %d dictionary indexes for %d values", len(idx), n)
		}
		out := make([]int64, n)
		for k, i := range idx {
			if i < 0 || int(i) >= len(vals) {
				return nil, fmt.Errorf("dictionary index %d out of range (%d entries)", i, len(vals))
			}
			out[k] = vals[i]
		}
		return out, nil
	}
	pd := p.Data()
	vals := pd.Int64()
	if len(vals) != n {
		return nil, fmt.Errorf("page has %d values, header says %d", len(vals), n)
	}
	return vals, nil
}

// sameBacking reports whether two offset slices are the same memory (the
// dictionary of a column chunk is shared by its pages).
func sameBacking(a, b []uint32) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}
