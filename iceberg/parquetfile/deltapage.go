package parquetfile

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// deltaBytesFloor is the decoded size a DELTA_BYTE_ARRAY page may always
// reach: its values repeat prefixes, so they may legitimately decode to
// far more than the page's bytes (a column of one long value repeated),
// but not without bound. Past the floor a page may decode to eagerRatio
// times its declared size, never past maxPageBytes.
const deltaBytesFloor = 128 << 20

func deltaBytesLimit(pageBytes int) int64 {
	return min(maxPageBytes, max(deltaBytesFloor, eagerRatio*int64(pageBytes)))
}

// decodesEncoded reports whether values of kind in the DELTA_* or
// BYTE_STREAM_SPLIT encoding enc are decoded directly.
func decodesEncoded(enc format.Encoding, kind parquet.Kind) bool {
	switch enc {
	case format.DeltaBinaryPacked:
		return kind == parquet.Int32 || kind == parquet.Int64
	case format.DeltaLengthByteArray:
		return kind == parquet.ByteArray
	case format.DeltaByteArray:
		return kind == parquet.ByteArray || kind == parquet.FixedLenByteArray
	case format.ByteStreamSplit:
		switch kind {
		case parquet.Int32, parquet.Int64, parquet.Float, parquet.Double, parquet.FixedLenByteArray:
			return true
		}
	}
	return false
}

// decodeEncoded decodes the n defined values of a page in the DELTA_* or
// BYTE_STREAM_SPLIT encoding enc (one decodesEncoded accepts) from src
// into c; pageBytes is the page's declared uncompressed size.
func (d *directChunk) decodeEncoded(c *chunkData, enc format.Encoding, src []byte, n, pageBytes int) error {
	b := c.bufs
	if n == 0 && len(src) == 0 {
		// A page of nulls may carry no stream at all.
		b.off = append(b.off[:0], 0)
		c.off = b.off
		return nil
	}
	var err error
	switch enc {
	case format.DeltaBinaryPacked:
		if err := checkDeltaCount(src, n); err != nil {
			return err
		}
		if c.kind == parquet.Int32 {
			c.i32, err = decodeValues(b, &b.i32, n, d.bind, func(out []int32) error {
				_, err := decodeDeltaBinary(src, out)
				return err
			})
		} else {
			c.i64, err = decodeValues(b, &b.i64, n, d.bind, func(out []int64) error {
				_, err := decodeDeltaBinary(src, out)
				return err
			})
		}
	case format.DeltaLengthByteArray:
		// The values are back to back in src already: viewed, as PLAIN
		// byte arrays are.
		c.bin, b.off, err = decodeDeltaLengthBytes(src, n, b.off)
		c.off = b.off
	case format.DeltaByteArray:
		limit := deltaBytesLimit(pageBytes)
		if c.kind == parquet.FixedLenByteArray {
			if d.width <= 0 {
				return fmt.Errorf("fixed length %d", d.width)
			}
			c.bin, b.off, err = decodeDeltaByteArray(src, n, b.off, limit, d.width, func(size int) []byte {
				b.bin = grow(b.bin[:0], size)
				return b.bin
			})
			return err
		}
		var out []byte
		c.bin, b.off, err = decodeDeltaByteArray(src, n, b.off, limit, 0, func(size int) []byte {
			out = pageMemory.get(size)
			return out
		})
		if err != nil {
			pageMemory.put(out)
			return err
		}
		c.off = b.off
		replaceBody(b, out)
	case format.ByteStreamSplit:
		return d.decodeSplit(c, src, n)
	default:
		return fmt.Errorf("encoding %v not decoded here", enc)
	}
	return err
}

// decodeSplit decodes n BYTE_STREAM_SPLIT values of c's kind from src.
func (d *directChunk) decodeSplit(c *chunkData, src []byte, n int) error {
	b := c.bufs
	size := d.width
	switch c.kind {
	case parquet.Int32, parquet.Float:
		size = 4
	case parquet.Int64, parquet.Double:
		size = 8
	}
	// Checked before anything is sized from n.
	if size <= 0 || int64(n)*int64(size) != int64(len(src)) {
		return fmt.Errorf("%d bytes of byte-stream-split values for %d values of %d bytes", len(src), n, size)
	}
	var err error
	switch c.kind {
	case parquet.Int32:
		c.i32, err = decodeValues(b, &b.i32, n, d.bind, splitInto[int32](src, n))
	case parquet.Int64:
		c.i64, err = decodeValues(b, &b.i64, n, d.bind, splitInto[int64](src, n))
	case parquet.Float:
		c.f32, err = decodeValues(b, &b.f32, n, d.bind, splitInto[float32](src, n))
	case parquet.Double:
		c.f64, err = decodeValues(b, &b.f64, n, d.bind, splitInto[float64](src, n))
	case parquet.FixedLenByteArray:
		b.bin = grow(b.bin[:0], len(src))
		err = decodeByteStreamSplit(src, n, size, b.bin)
		c.bin = b.bin
	default:
		err = fmt.Errorf("byte-stream-split %v values", c.kind)
	}
	return err
}

func splitInto[T int32 | int64 | float32 | float64](src []byte, n int) func([]T) error {
	return func(out []T) error {
		var zero T
		return decodeByteStreamSplit(src, n, sizeOf(zero), castBytes(out))
	}
}

func sizeOf[T int32 | int64 | float32 | float64](T) int {
	var zero T
	switch any(zero).(type) {
	case int32, float32:
		return 4
	}
	return 8
}

// decodeValues has decode fill n values of T. Values bound in place go
// to a fresh buffer that becomes the page's body once decoded (arrays
// share it, as they share PLAIN values); others go to *buf.
func decodeValues[T int32 | int64 | float32 | float64](b *pageBufs, buf *[]T, n int, bind bool, decode func([]T) error) ([]T, error) {
	if !bind {
		*buf = grow((*buf)[:0], n)
		return *buf, decode(*buf)
	}
	var zero T
	mem := pageMemory.get(n * sizeOf(zero))
	out := bytesAs[T](mem)[:n:n]
	if err := decode(out); err != nil {
		pageMemory.put(mem)
		return nil, err
	}
	replaceBody(b, mem)
	return out, nil
}

// replaceBody makes mem, the decoded values, the page's body in place of
// the bytes they were decoded from (recycled: nothing views them).
func replaceBody(b *pageBufs, mem []byte) {
	b.releaseBody()
	b.body = mem
}
