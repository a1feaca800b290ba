package puffin

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// Writer writes a Puffin file: AddBlob for each blob, then Finish.
// Blobs are stored as given (uncompressed). Not safe for concurrent use.
type Writer struct {
	w       io.Writer
	written int64
	blobs   []BlobMetadata
	props   map[string]string
	err     error
}

// NewWriter starts a Puffin file on w with the given file properties
// (for example PropCreatedBy).
func NewWriter(w io.Writer, props map[string]string) *Writer {
	pw := &Writer{w: w, props: props}
	pw.write(Magic[:])
	return pw
}

func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.w.Write(b)
	w.written += int64(n)
	w.err = err
}

// AddBlob appends a blob; meta's Offset and Length are set by the writer
// and the completed metadata is returned.
func (w *Writer) AddBlob(meta BlobMetadata, data []byte) (BlobMetadata, error) {
	if w.err != nil {
		return BlobMetadata{}, w.err
	}
	meta.Offset, meta.Length = w.written, int64(len(data))
	if meta.Fields == nil {
		meta.Fields = []int32{}
	}
	w.write(data)
	if w.err != nil {
		return BlobMetadata{}, w.err
	}
	w.blobs = append(w.blobs, meta)
	return meta, nil
}

// Finish writes the footer (uncompressed) and returns the file's size.
func (w *Writer) Finish() (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	blobs := w.blobs
	if blobs == nil {
		blobs = []BlobMetadata{}
	}
	payload, err := json.Marshal(FileMetadata{Blobs: blobs, Properties: w.props})
	if err != nil {
		return 0, fmt.Errorf("puffin: footer: %w", err)
	}
	if len(payload) > math.MaxInt32 {
		return 0, ErrTooLarge
	}
	tail := make([]byte, 0, len(payload)+footerStructLen+4)
	tail = append(tail, Magic[:]...)
	tail = append(tail, payload...)
	tail = binary.LittleEndian.AppendUint32(tail, uint32(len(payload)))
	tail = append(tail, 0, 0, 0, 0) // flags: not compressed
	tail = append(tail, Magic[:]...)
	w.write(tail)
	if w.err != nil {
		return 0, w.err
	}
	w.err = ErrWriterClosed
	return w.written, nil
}
