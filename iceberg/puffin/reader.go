package puffin

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// DefaultMaxSectionBytes bounds a footer payload or blob, compressed or
// not, that Reader will hold in memory.
const DefaultMaxSectionBytes = 256 << 20

// Reader reads the footer and blobs of a Puffin file.
type Reader struct {
	r        io.ReaderAt
	size     int64
	maxBytes int64
	meta     *FileMetadata
}

// NewReader reads and validates the footer of the size-byte file r: both
// magics, the flags, the JSON payload, and that every blob lies between
// the leading magic and the footer. maxBytes bounds the footer payload and
// each blob (DefaultMaxSectionBytes when <= 0).
func NewReader(r io.ReaderAt, size, maxBytes int64) (*Reader, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxSectionBytes
	}
	if size < int64(len(Magic))+int64(len(Magic))+footerStructLen {
		return nil, corruptf("file of %d bytes is too short", size)
	}
	var head [4]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return nil, fmt.Errorf("puffin: read magic: %w", err)
	}
	if head != Magic {
		return nil, corruptf("bad leading magic % x", head)
	}
	var tail [footerStructLen]byte
	if _, err := r.ReadAt(tail[:], size-footerStructLen); err != nil {
		return nil, fmt.Errorf("puffin: read footer: %w", err)
	}
	if [4]byte(tail[8:]) != Magic {
		return nil, corruptf("bad trailing magic % x", tail[8:])
	}
	payloadLen := int64(int32(binary.LittleEndian.Uint32(tail[:4])))
	flags := tail[4:8]
	footerStart := size - footerStructLen - payloadLen - int64(len(Magic))
	if payloadLen < 0 || footerStart < int64(len(Magic)) {
		return nil, corruptf("footer payload size %d does not fit in %d bytes", payloadLen, size)
	}
	if payloadLen > maxBytes {
		return nil, fmt.Errorf("%w: footer payload of %d bytes", ErrTooLarge, payloadLen)
	}
	buf := make([]byte, int(payloadLen)+len(Magic))
	if _, err := r.ReadAt(buf, footerStart); err != nil {
		return nil, fmt.Errorf("puffin: read footer: %w", err)
	}
	if [4]byte(buf[:4]) != Magic {
		return nil, corruptf("bad footer magic % x", buf[:4])
	}
	payload := buf[4:]
	if flags[0]&flagFooterCompressed != 0 {
		var err error
		if payload, err = decompress(CodecLZ4, payload, maxBytes); err != nil {
			return nil, fmt.Errorf("puffin: footer: %w", err)
		}
	}
	var meta FileMetadata
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&meta); err != nil {
		return nil, corruptf("footer JSON: %v", err)
	}
	if meta.Blobs == nil {
		return nil, corruptf("footer has no blobs list")
	}
	for i, b := range meta.Blobs {
		if b.Type == "" {
			return nil, corruptf("blob %d has no type", i)
		}
		if b.Offset < int64(len(Magic)) || b.Length < 0 || b.Offset > footerStart-b.Length {
			return nil, corruptf("blob %d [%d, +%d) lies outside the blob area [4, %d)", i, b.Offset, b.Length, footerStart)
		}
	}
	return &Reader{r: r, size: size, maxBytes: maxBytes, meta: &meta}, nil
}

// Metadata is the footer.
func (r *Reader) Metadata() *FileMetadata { return r.meta }

// ReadBlob reads one blob of the footer, decompressed.
func (r *Reader) ReadBlob(b BlobMetadata) ([]byte, error) {
	if b.Length > r.maxBytes {
		return nil, fmt.Errorf("%w: blob of %d bytes", ErrTooLarge, b.Length)
	}
	if b.Offset < int64(len(Magic)) || b.Length < 0 || b.Offset > r.size-b.Length {
		return nil, corruptf("blob [%d, +%d) lies outside the file of %d bytes", b.Offset, b.Length, r.size)
	}
	data := make([]byte, b.Length)
	if _, err := r.r.ReadAt(data, b.Offset); err != nil {
		return nil, fmt.Errorf("puffin: read blob: %w", err)
	}
	if b.CompressionCodec == nil {
		return data, nil
	}
	return decompress(*b.CompressionCodec, data, r.maxBytes)
}

// decompress inflates one LZ4 or zstd frame, failing once the output
// passes limit bytes.
func decompress(codec string, data []byte, limit int64) ([]byte, error) {
	var src io.Reader
	switch codec {
	case CodecLZ4:
		src = lz4.NewReader(bytes.NewReader(data))
	case CodecZstd:
		zr, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(limit)))
		if err != nil {
			return nil, corruptf("zstd: %v", err)
		}
		defer zr.Close()
		src = zr
	default:
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedCodec, codec)
	}
	out, err := io.ReadAll(io.LimitReader(src, limit+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, corruptf("%s frame truncated", codec)
		}
		return nil, corruptf("%s: %v", codec, err)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("%w: %s output exceeds %d bytes", ErrTooLarge, codec, limit)
	}
	return out, nil
}
