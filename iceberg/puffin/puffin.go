// Package puffin reads and writes Puffin files: blobs followed by a JSON
// footer describing them (type, fields, snapshot, offset, length, codec,
// properties). Footers are written uncompressed; LZ4- and zstd-compressed
// footers and blobs are read.
package puffin

// Magic opens a Puffin file and its footer.
var Magic = [4]byte{'P', 'F', 'A', '1'}

// Compression codec names.
const (
	CodecLZ4  = "lz4"
	CodecZstd = "zstd"
)

// PropCreatedBy is the recommended file property naming the writer.
const PropCreatedBy = "created-by"

// footerStructLen is the fixed tail: payload size, flags, magic.
const footerStructLen = 12

// flagFooterCompressed is bit 0 of the first flags byte.
const flagFooterCompressed = 1

// FileMetadata is the footer payload.
type FileMetadata struct {
	Blobs      []BlobMetadata    `json:"blobs"`
	Properties map[string]string `json:"properties,omitempty"`
}

// BlobMetadata describes one blob.
type BlobMetadata struct {
	Type             string            `json:"type"`
	Fields           []int32           `json:"fields"`
	SnapshotID       int64             `json:"snapshot-id"`
	SequenceNumber   int64             `json:"sequence-number"`
	Offset           int64             `json:"offset"`
	Length           int64             `json:"length"`
	CompressionCodec *string           `json:"compression-codec,omitempty"`
	Properties       map[string]string `json:"properties,omitempty"`
}
