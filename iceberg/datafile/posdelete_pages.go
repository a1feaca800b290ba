package datafile

import (
	"bytes"
	"fmt"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

type parquetStats = format.Statistics

// rowRange is the rows [from, to) of a row group.
type rowRange struct{ from, to int64 }

// pathScan scans the file_path column of one delete file for one data
// path, row group after row group, checking the order as it goes.
type pathScan struct {
	want     []byte
	stopPast bool // the file is known sorted: stop at the first larger path
	past     bool // stopPast and a larger path was seen
	unsorted bool // some path was smaller than the one before it

	prev     []byte // last distinct path seen (a copy)
	havePrev bool
	prevCmp  int // bytes.Compare(prev, want)
	dec      byteArrayDecoder
}

// rowGroup returns the ranges of rows whose path is the wanted one, in row
// order (one range when the file is sorted).
func (s *pathScan) rowGroup(cc parquet.ColumnChunk, col *parquet.Column, numRows int64) ([]rowRange, error) {
	var ranges []rowRange
	err := pageRows(cc, col, numRows, func(first int64, p parquet.Page) (bool, error) {
		page, err := s.dec.values(p)
		if err != nil {
			return false, err
		}
		lastIdx := int32(-1)
		for i := 0; i < page.n; i++ {
			// Consecutive rows of a path share a dictionary index: only a
			// change of path needs comparing.
			if idx := page.dictIndex(i); idx < 0 || idx != lastIdx {
				lastIdx = idx
				s.see(page.value(i))
			}
			switch {
			case s.prevCmp == 0:
				row := first + int64(i)
				if n := len(ranges); n > 0 && ranges[n-1].to == row {
					ranges[n-1].to++
				} else {
					ranges = append(ranges, rowRange{row, row + 1})
				}
			case s.prevCmp > 0 && s.stopPast:
				s.past = true
				return false, nil
			}
		}
		return true, nil
	})
	return ranges, err
}

// see records the next path in file order.
func (s *pathScan) see(v []byte) {
	if s.havePrev {
		if bytes.Equal(v, s.prev) {
			return
		}
		if bytes.Compare(v, s.prev) < 0 {
			s.unsorted = true
		}
	}
	s.prev = append(s.prev[:0], v...)
	s.havePrev = true
	s.prevCmp = bytes.Compare(v, s.want)
}

// positionsIn appends the pos values of the rows in ranges (ordered,
// disjoint).
func positionsIn(cc parquet.ColumnChunk, col *parquet.Column, ranges []rowRange, numRows int64, out []int64) ([]int64, error) {
	r := 0
	err := pageRows(cc, col, numRows, func(first int64, p parquet.Page) (bool, error) {
		end := first + p.NumValues()
		if ranges[r].from >= end {
			return true, nil
		}
		vals, err := int64Values(p)
		if err != nil {
			return false, err
		}
		for ; r < len(ranges) && ranges[r].from < end; r++ {
			for row := max(ranges[r].from, first); row < min(ranges[r].to, end); row++ {
				v := vals[row-first]
				if v < 0 {
					return false, fmt.Errorf("negative position %d", v)
				}
				out = append(out, v)
			}
			if ranges[r].to > end {
				break // continues on the next page
			}
		}
		return r < len(ranges), nil
	})
	return out, err
}

// byteArrayDecoder reads BYTE_ARRAY pages, plain or dictionary encoded,
// checking offsets and indexes; it remembers the last checked dictionary.
type byteArrayDecoder struct {
	dictData []byte
	dictOffs []uint32
}

// byteArrayPage is one decoded page of byte arrays.
type byteArrayPage struct {
	n          int
	idx        []int32 // dictionary indexes, nil for plain pages
	data       []byte
	offs       []uint32
	dictOffsOf []uint32
}

func (p byteArrayPage) value(i int) []byte {
	if p.idx != nil {
		k := p.idx[i]
		return p.data[p.dictOffsOf[k]:p.dictOffsOf[k+1]]
	}
	return p.data[p.offs[i]:p.offs[i+1]]
}

// dictIndex is row i's dictionary index, or -1 on a plain page.
func (p byteArrayPage) dictIndex(i int) int32 {
	if p.idx != nil {
		return p.idx[i]
	}
	return -1
}

func (d *byteArrayDecoder) values(p parquet.Page) (byteArrayPage, error) {
	n := int(p.NumValues())
	if dict := p.Dictionary(); dict != nil {
		dv := dict.Page().Data()
		data, offs := dv.ByteArray()
		if !sameBacking(offs, d.dictOffs) {
			if err := checkOffsets(data, offs, dict.Len()); err != nil {
				return byteArrayPage{}, fmt.Errorf("dictionary: %w", err)
			}
			d.dictData, d.dictOffs = data, offs
		}
		pd := p.Data()
		idx := pd.Int32()
		if len(idx) != n {
			return byteArrayPage{}, fmt.Errorf("page has %d dictionary indexes for %d values", len(idx), n)
		}
		size := int32(len(d.dictOffs) - 1)
		for _, i := range idx {
			if i < 0 || i >= size {
				return byteArrayPage{}, fmt.Errorf("dictionary index %d out of range (%d entries)", i, size)
			}
		}
		if idx == nil {
			idx = []int32{}
		}
		return byteArrayPage{n: n, idx: idx, data: d.dictData, dictOffsOf: d.dictOffs}, nil
	}
	pd := p.Data()
	data, offs := pd.ByteArray()
	if n == 0 {
		return byteArrayPage{}, nil
	}
	if err := checkOffsets(data, offs, n); err != nil {
		return byteArrayPage{}, err
	}
	return byteArrayPage{n: n, data: data, offs: offs}, nil
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
