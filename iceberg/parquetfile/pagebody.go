package parquetfile

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"sync"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// bodyChecker checks the bodies of a chunk's data pages for what
// parquet-go sizes allocations from without bounds: run lengths of the
// RLE/bit-packed hybrid (levels, dictionary indexes, booleans). A run may
// claim two billion values in six bytes, and parquet-go grows its output
// to hold them. Bodies are decompressed here with the output capped at
// the header's uncompressed size, which also stops decompression bombs
// and frames that claim more than that size.
type bodyChecker struct {
	codec  format.CompressionCodec
	maxDef byte
	maxRep byte
	raw    []byte
	out    []byte
}

// check checks the body of the page h.
func (b *bodyChecker) check(r io.ReaderAt, pos int64, h *format.PageHeader) error {
	if h.Type != format.DataPage && h.Type != format.DataPageV2 && h.Type != format.DictionaryPage {
		return nil
	}
	b.raw = sized(b.raw, int(h.CompressedPageSize))
	if _, err := r.ReadAt(b.raw, pos); err != nil && err != io.EOF {
		return fmt.Errorf("reading page: %w", err)
	}
	if h.Type == format.DictionaryPage {
		_, err := b.decompress(b.raw, int(h.UncompressedPageSize))
		return err
	}
	if h.Type == format.DataPage {
		v := &h.DataPageHeader.V
		data, err := b.decompress(b.raw, int(h.UncompressedPageSize))
		if err != nil {
			return err
		}
		n := int64(v.NumValues)
		if b.maxRep > 0 {
			if data, err = checkLevelsV1(data, v.RepetitionLevelEncoding, b.maxRep, n); err != nil {
				return fmt.Errorf("repetition levels: %w", err)
			}
		}
		if b.maxDef > 0 {
			if data, err = checkLevelsV1(data, v.DefinitionLevelEncoding, b.maxDef, n); err != nil {
				return fmt.Errorf("definition levels: %w", err)
			}
		}
		return checkValues(data, v.Encoding, n)
	}
	v := &h.DataPageHeaderV2.V
	rl, dl := int64(v.RepetitionLevelsByteLength), int64(v.DefinitionLevelsByteLength)
	if rl < 0 || dl < 0 || rl+dl > int64(len(b.raw)) {
		return fmt.Errorf("levels of %d+%d bytes in a page of %d", rl, dl, len(b.raw))
	}
	n := int64(v.NumValues)
	if b.maxRep > 0 {
		if err := checkRuns(b.raw[:rl], levelWidth(b.maxRep), n); err != nil {
			return fmt.Errorf("repetition levels: %w", err)
		}
	}
	if b.maxDef > 0 {
		if err := checkRuns(b.raw[rl:rl+dl], levelWidth(b.maxDef), n); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
	}
	data := b.raw[rl+dl:]
	if !v.IsCompressed.Valid || v.IsCompressed.V {
		var err error
		if data, err = b.decompress(data, int(h.UncompressedPageSize-int32(rl+dl))); err != nil {
			return err
		}
	}
	return checkValues(data, v.Encoding, n)
}

// decompress decodes src, which must hold exactly size bytes, into the
// checker's reused buffer.
func (b *bodyChecker) decompress(src []byte, size int) ([]byte, error) {
	out, err := decompressPage(b.codec, b.out[:0], src, size)
	if cap(out) > cap(b.out) && cap(out) <= 4<<20 {
		b.out = out[:0] // keep page-sized buffers for the next page
	}
	return out, err
}

// eagerRatio bounds the output buffer sized up front from a page's
// declared size: at most this many times the compressed bytes (or
// eagerBytes). Larger claims are decoded into a buffer grown as output
// is produced, so a header cannot make the reader allocate more than its
// bytes back.
const (
	eagerRatio = 64
	eagerBytes = 4 << 20
)

// decompressPage decodes src, which must hold exactly size bytes, into
// dst's storage (grown when too small). The output never passes size:
// decoding stops one byte past it, which also stops decompression bombs
// and frames that claim more than the page.
func decompressPage(codec format.CompressionCodec, dst, src []byte, size int) ([]byte, error) {
	if size < 0 {
		return nil, fmt.Errorf("negative uncompressed size %d", size)
	}
	var (
		out []byte
		err error
	)
	switch codec {
	case format.Uncompressed:
		if len(src) != size {
			return nil, fmt.Errorf("uncompressed page of %d bytes, header says %d", len(src), size)
		}
		return src, nil
	case format.Snappy:
		n, derr := snappy.DecodedLen(src)
		if derr != nil {
			return nil, fmt.Errorf("snappy: %w", derr)
		}
		// A snappy copy element yields at most 64 bytes from 2.
		if n != size || n > 32*len(src)+64 {
			return nil, fmt.Errorf("snappy block of %d bytes (%d compressed) in a page of %d", n, len(src), size)
		}
		out, err = snappy.Decode(sized(dst, n), src)
	case format.Zstd:
		if size <= max(eagerBytes, eagerRatio*len(src)) {
			out, err = unzstdInto(sized(dst, size+zstdSlack)[:0], src)
		} else {
			out, err = unzstdAtMost(dst[:0], src, size)
		}
	case format.Gzip:
		var z io.Reader
		if z, err = gzip.NewReader(bytes.NewReader(src)); err == nil {
			out, err = readAtMost(dst[:0], z, size)
		}
	default:
		// Other codecs are left to parquet-go, with the size checked after.
		out, err = parquet.LookupCompressionCodec(codec).Decode(dst[:0], src)
	}
	if err != nil {
		return nil, fmt.Errorf("decompressing page: %w", err)
	}
	if len(out) != size {
		return nil, fmt.Errorf("page decompresses to %d bytes, header says %d", len(out), size)
	}
	return out, nil
}

// readAtMost appends r's bytes to dst, stopping one past size.
func readAtMost(dst []byte, r io.Reader, size int) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	_, err := io.Copy(buf, io.LimitReader(r, int64(size)+1))
	return buf.Bytes(), err
}

// zstdDecoders are streaming decoders with the window capped, so a frame
// header cannot size a decoder's history beyond a page.
var zstdDecoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxPageBytes), zstd.WithDecoderLowmem(true))
	if err != nil {
		return err
	}
	return d
}}

// zstdBlockDecoders decode whole frames into a caller's buffer and never
// past its capacity (WithDecodeAllCapLimit), the window capped as for
// zstdDecoders.
var zstdBlockDecoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxPageBytes), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		return err
	}
	return d
}}

// zstdSlack is room past a page's size in the output buffer: with it the
// decoder copies in 16-byte blocks (its fast path); without, it copies
// byte-exact. Output past the size is still caught by the size check.
const zstdSlack = 64

// unzstdInto decodes the frames of src into dst, whose capacity bounds
// the output: past it is an error, not a reallocation.
func unzstdInto(dst, src []byte) ([]byte, error) {
	v := zstdBlockDecoders.Get()
	d, ok := v.(*zstd.Decoder)
	if !ok {
		return nil, v.(error)
	}
	defer zstdBlockDecoders.Put(d)
	return d.DecodeAll(src, dst[:0])
}

// unzstdAtMost appends the frames of src to dst, stopping one past size.
func unzstdAtMost(dst, src []byte, size int) ([]byte, error) {
	v := zstdDecoders.Get()
	d, ok := v.(*zstd.Decoder)
	if !ok {
		return nil, v.(error)
	}
	defer zstdDecoders.Put(d)
	if err := d.Reset(bytes.NewReader(src)); err != nil {
		return nil, err
	}
	return readAtMost(dst, d, size)
}

func levelWidth(max byte) uint { return uint(bits.Len8(max)) }

// checkLevelsV1 checks the RLE levels at the start of a v1 page body
// (a 4-byte length, then the runs) and returns the rest of the body.
func checkLevelsV1(data []byte, enc format.Encoding, max byte, n int64) ([]byte, error) {
	if enc != format.RLE {
		return data, nil // BIT_PACKED levels are sized by their bytes
	}
	if len(data) < 4 {
		return nil, fmt.Errorf("truncated")
	}
	l := int64(binary.LittleEndian.Uint32(data))
	if l > int64(len(data)-4) {
		return nil, fmt.Errorf("%d bytes of levels in %d", l, len(data)-4)
	}
	return data[4+l:], checkRuns(data[4:4+l], levelWidth(max), n)
}

// checkValues checks the values of a page of n entries when their
// encoding is run-length based.
func checkValues(data []byte, enc format.Encoding, n int64) error {
	switch enc {
	case format.RLEDictionary, format.PlainDictionary:
		if len(data) == 0 {
			return nil
		}
		if data[0] > 32 {
			return fmt.Errorf("dictionary index width %d", data[0])
		}
		return checkRuns(data[1:], uint(data[0]), n)
	case format.RLE: // booleans, behind a 4-byte length
		if len(data) < 4 {
			return nil
		}
		return checkRuns(data[4:], 1, n)
	case format.DeltaBinaryPacked, format.DeltaLengthByteArray, format.DeltaByteArray:
		return checkDeltaValues(data, enc, n)
	}
	return nil
}

// checkDeltaValues checks the DELTA_* streams of a page of n entries:
// parquet-go sizes its output from their value counts and, for
// DELTA_BYTE_ARRAY, from the values' total length, which shared
// prefixes can make far larger than the page. The streams are decoded
// here, as the direct decoder would, with the total capped alike.
func checkDeltaValues(data []byte, enc format.Encoding, n int64) error {
	if len(data) == 0 {
		return nil // a page of nulls may carry no stream
	}
	h, _, err := readDeltaHeader(data)
	if err != nil {
		return err
	}
	if int64(h.count) > n {
		return fmt.Errorf("delta stream of %d values in a page of %d", h.count, n)
	}
	switch enc {
	case format.DeltaLengthByteArray:
		_, _, err = decodeDeltaLengthBytes(data, h.count, nil)
	case format.DeltaByteArray:
		_, _, err = decodeDeltaByteArray(data, h.count, nil, deltaBytesLimit(len(data)), 0, func(size int) []byte { return make([]byte, size) })
	}
	return err
}

// checkRuns checks that the runs of an RLE/bit-packed hybrid stream of
// the given bit width hold at most n values (plus the padding of the last
// bit-packed group). A bit-packed run starting before the n-th value may
// claim more: the format lets the last run be padded (DuckDB pads every
// bit-packed run to 256 values) and readers ignore values past the count.
// Its bytes must then all be there, since parquet-go sizes its output from
// the run's length; without bytes (width 0) the padding is capped.
// Malformed run headers are left for the decoder.
func checkRuns(src []byte, width uint, n int64) error {
	limit := n + 8
	var total int64
	for i := 0; i < len(src); {
		u, k := binary.Uvarint(src[i:])
		if k <= 0 {
			return nil
		}
		i += k
		count := int64(u >> 1)
		if u&1 == 1 && total < n && u>>1 > uint64(limit-total)/8 { // a padded last run
			if width == 0 && u>>1 > uint64(limit-total+maxZeroWidthPadding)/8 {
				return fmt.Errorf("bit-packed run of %d groups in a page of %d values", u>>1, n)
			}
			if width > 0 && u>>1 > uint64(len(src)-i)/uint64(width) {
				return fmt.Errorf("bit-packed run of %d groups past the page's %d values is truncated", u>>1, n)
			}
			i += int(count * int64(width))
			total = n
			continue
		}
		if u>>1 > uint64(limit) {
			return fmt.Errorf("run of %d values in a page of %d", u>>1, n)
		}
		if u&1 == 1 { // bit-packed: count groups of 8 values
			total += 8 * count
			i += int(count * int64(width))
		} else {
			total += count
			i += int(width+7) / 8
		}
		if total > limit {
			return fmt.Errorf("runs hold more than the page's %d values", n)
		}
	}
	return nil
}

// maxZeroWidthPadding bounds the values a padded bit-packed run of width
// 0 may claim past a page's count (DuckDB pads to 256 values).
const maxZeroWidthPadding = 1024

// sized returns b resized to n bytes, reallocated only when too small.
func sized(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
