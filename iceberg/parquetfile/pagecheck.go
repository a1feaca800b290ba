package parquetfile

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// maxPageBytes caps a page's compressed or uncompressed size: parquet-go
// allocates a page's buffers from its header before reading a byte of it,
// so an unchecked header in a tiny file could force gigabytes.
const maxPageBytes = 1 << 30

// Page headers are decoded from a window of the chunk that starts small
// and grows up to maxPageHeaderBytes: real headers are a few bytes (with
// statistics capped at 4 KiB by common writers), and a bounded window
// keeps a corrupt length inside a header from sizing an allocation.
const (
	firstHeaderWindow  = 4 << 10
	maxPageHeaderBytes = 256 << 10
)

// checkChunkPages walks the page headers of a column chunk before
// parquet-go reads its pages, rejecting any header whose sizes or counts
// the chunk's footer entry and the file cannot back: page bodies must lie
// inside the chunk, uncompressed sizes within the chunk's declared total
// and maxPageBytes, value counts within the chunk's; bc checks the
// bodies of data pages.
func checkChunkPages(r io.ReaderAt, m *format.ColumnMetaData, bc *bodyChecker) error {
	start := chunkStart(m)
	end := start + m.TotalCompressedSize // inside the file: checked by validateFile
	values := int64(0)                   // data page values seen so far
	var buf []byte
	for pos := start; pos < end; {
		h, n, err := readPageHeader(r, pos, end, &buf)
		if err != nil {
			return err
		}
		body := pos + int64(n)
		if err := checkPageHeader(h, end-body, m); err != nil {
			return fmt.Errorf("page at offset %d: %w", pos, err)
		}
		if nv, ok := dataPageValues(h); ok {
			values += int64(nv)
			if values > m.NumValues {
				return fmt.Errorf("page at offset %d: pages hold more than the chunk's %d values", pos, m.NumValues)
			}
		}
		if err := bc.check(r, body, h); err != nil {
			return fmt.Errorf("page at offset %d: %w", pos, err)
		}
		pos = body + int64(h.CompressedPageSize)
	}
	return nil
}

// readPageHeader decodes the page header at pos, returning it and its
// encoded length.
func readPageHeader(r io.ReaderAt, pos, end int64, buf *[]byte) (*format.PageHeader, int, error) {
	window := int64(firstHeaderWindow)
	for {
		size := min(window, end-pos)
		if int64(cap(*buf)) < size {
			*buf = make([]byte, size)
		}
		b := (*buf)[:size]
		if _, err := r.ReadAt(b, pos); err != nil && err != io.EOF {
			return nil, 0, fmt.Errorf("reading page header at offset %d: %w", pos, err)
		}
		h := new(format.PageHeader)
		proto := new(thrift.CompactProtocol)
		rd := proto.NewReaderFromBytes(b)
		err := thrift.NewDecoder(rd).Decode(h)
		if err == nil {
			n := rd.(interface{ BytesRead() int }).BytesRead()
			return h, n, nil
		}
		if size == end-pos || window >= maxPageHeaderBytes {
			return nil, 0, fmt.Errorf("malformed page header at offset %d: %v", pos, err)
		}
		window *= 4
	}
}

// checkPageHeader checks one header; room is the chunk's bytes after it.
func checkPageHeader(h *format.PageHeader, room int64, m *format.ColumnMetaData) error {
	cs, us := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
	switch {
	case cs < 0 || us < 0:
		return fmt.Errorf("negative page size (%d compressed, %d uncompressed)", cs, us)
	case cs > room:
		return fmt.Errorf("page of %d bytes overruns its column chunk (%d bytes left)", cs, room)
	case us > maxPageBytes || cs > maxPageBytes:
		return fmt.Errorf("page of %d bytes exceeds the %d-byte limit", max(cs, us), maxPageBytes)
	case us > m.TotalUncompressedSize:
		return fmt.Errorf("page of %d uncompressed bytes in a chunk of %d", us, m.TotalUncompressedSize)
	}
	switch h.Type {
	case format.DataPage, format.DataPageV2:
		nv, ok := dataPageValues(h)
		if !ok {
			return fmt.Errorf("%v page without its header", h.Type)
		}
		if nv < 0 || int64(nv) > maxPageValues {
			return fmt.Errorf("page of %d values", nv)
		}
	case format.DictionaryPage:
		if !h.DictionaryPageHeader.Valid {
			return fmt.Errorf("dictionary page without its header")
		}
		// Every dictionary entry takes at least a bit.
		if nv := int64(h.DictionaryPageHeader.V.NumValues); nv < 0 || nv > maxPageValues || nv > 8*us+8 {
			return fmt.Errorf("dictionary page of %d values in %d bytes", nv, us)
		}
	}
	return nil
}

// dataPageValues is the entry count of a data page (false for other pages).
func dataPageValues(h *format.PageHeader) (int32, bool) {
	switch {
	case h.Type == format.DataPage && h.DataPageHeader.Valid:
		return h.DataPageHeader.V.NumValues, true
	case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
		return h.DataPageHeaderV2.V.NumValues, true
	}
	return 0, false
}
