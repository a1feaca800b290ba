package manifest

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
)

// blockSize is the uncompressed size at which a data block is flushed.
const blockSize = 64 * 1024

// countingWriter counts bytes and hides the caller's concrete type:
// hamba's ocf encoder appends to a non-empty *os.File instead of writing a
// new file, which is never what a manifest writer wants.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// newContainer writes the Avro header with the full schema (so field-id,
// element-id and logical type attributes survive) and deflate, as Java.
func newContainer(w io.Writer, schema obj, meta map[string][]byte) (*ocf.Encoder, *countingWriter, error) {
	js, err := json.Marshal(schema)
	if err != nil {
		return nil, nil, err
	}
	s, err := writerSchema(js)
	if err != nil {
		return nil, nil, err
	}
	cw := &countingWriter{w: w}
	enc, err := ocf.NewEncoderWithSchema(s, cw,
		ocf.WithSchemaMarshaler(ocf.FullSchemaMarshaler),
		ocf.WithCodec(ocf.Deflate),
		ocf.WithBlockLength(0),
		ocf.WithBlockSize(blockSize),
		ocf.WithMetadata(meta),
		ocf.WithEncoderSchemaCache(&avro.SchemaCache{}),
	)
	if err != nil {
		return nil, nil, err
	}
	return enc, cw, nil
}

// writerSchemas caches parsed writer schemas by their JSON text: every
// commit writes manifests of the same few schemas, and parsing one costs
// more than writing a small manifest. Each schema is parsed with a cache of
// its own, since records named r102 differ between partition specs.
var writerSchemas = struct {
	sync.Mutex
	m map[string]avro.Schema
}{m: map[string]avro.Schema{}}

func writerSchema(js []byte) (avro.Schema, error) {
	writerSchemas.Lock()
	s, ok := writerSchemas.m[string(js)]
	writerSchemas.Unlock()
	if ok {
		return s, nil
	}
	s, err := avro.ParseBytesWithCache(js, "", &avro.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("manifest: generated avro schema is invalid: %w", err)
	}
	writerSchemas.Lock()
	if len(writerSchemas.m) >= 256 {
		clear(writerSchemas.m)
	}
	writerSchemas.m[string(js)] = s
	writerSchemas.Unlock()
	return s, nil
}
