package manifest

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"

	"github.com/hamba/avro/v2"
)

// blockSize is the uncompressed size at which a data block is flushed.
const blockSize = 64 * 1024

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ocfWriter frames records that are already Avro-encoded as an object
// container file with the deflate codec, as Java writes manifests. The
// framing is written here rather than by hamba's ocf encoder because that
// one allocates a new deflate compressor (about a megabyte) per block,
// which dominated the cost of a small commit; compressors are pooled here.
type ocfWriter struct {
	out   *countingWriter
	sync  [16]byte
	block bytes.Buffer // records of the open block, uncompressed
	count int64
	frame []byte
	err   error
}

// newContainer writes the Avro header with the full schema (so field-id,
// element-id and logical type attributes survive) and meta, whose keys
// must not start with "avro.".
func newContainer(w io.Writer, schema obj, meta map[string][]byte) (*ocfWriter, *countingWriter, error) {
	js, err := appendJSON(nil, schema)
	if err != nil {
		return nil, nil, err
	}
	if err := checkWriterSchema(js); err != nil {
		return nil, nil, err
	}
	o := &ocfWriter{out: &countingWriter{w: w}}
	for i := range o.sync {
		o.sync[i] = byte(rand.Uint32())
	}
	h := append(make([]byte, 0, len(js)+512), "Obj\x01"...)
	h = appendLong(h, int64(len(meta)+2))
	h = appendString(h, "avro.schema")
	h = appendBytes(h, js)
	h = appendString(h, "avro.codec")
	h = appendString(h, "deflate")
	for _, k := range sortedKeys(meta) {
		h = appendString(h, k)
		h = appendBytes(h, meta[k])
	}
	h = appendLong(h, 0) // end of the map
	h = append(h, o.sync[:]...)
	if _, err := o.out.Write(h); err != nil {
		return nil, nil, err
	}
	return o, o.out, nil
}

// Write adds one encoded record.
func (o *ocfWriter) Write(rec []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	o.block.Write(rec)
	o.count++
	if o.block.Len() >= blockSize {
		o.flush()
	}
	return len(rec), o.err
}

// Close writes the last block; the underlying writer stays open.
func (o *ocfWriter) Close() error {
	if o.err == nil && o.count > 0 {
		o.flush()
	}
	return o.err
}

var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.DefaultCompression)
	return w
}}

// flush compresses the open block and writes it with its count, size and
// the sync marker.
func (o *ocfWriter) flush() {
	var z bytes.Buffer
	z.Grow(o.block.Len()/2 + 64)
	fw := deflaters.Get().(*flate.Writer)
	fw.Reset(&z)
	_, err := fw.Write(o.block.Bytes())
	if err == nil {
		err = fw.Close()
	}
	deflaters.Put(fw)
	if err != nil {
		o.err = fmt.Errorf("manifest: deflate: %w", err)
		return
	}
	f := appendLong(o.frame[:0], o.count)
	f = appendLong(f, int64(z.Len()))
	f = append(f, z.Bytes()...)
	f = append(f, o.sync[:]...)
	o.frame = f
	if _, err := o.out.Write(f); err != nil {
		o.err = err
		return
	}
	o.block.Reset()
	o.count = 0
}

// validSchemas remembers the writer schemas already parsed: every commit
// writes manifests of the same few schemas, and parsing one costs more
// than writing a small manifest. Each is parsed with a cache of its own,
// since records named r102 differ between partition specs.
var validSchemas = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// checkWriterSchema checks that a generated schema is valid Avro, so a bug
// in schema generation fails the write instead of producing a file no
// reader accepts.
func checkWriterSchema(js []byte) error {
	validSchemas.Lock()
	ok := validSchemas.m[string(js)]
	validSchemas.Unlock()
	if ok {
		return nil
	}
	if _, err := avro.ParseBytesWithCache(js, "", &avro.SchemaCache{}); err != nil {
		return fmt.Errorf("manifest: generated avro schema is invalid: %w", err)
	}
	validSchemas.Lock()
	if len(validSchemas.m) >= 256 {
		clear(validSchemas.m)
	}
	validSchemas.m[string(js)] = true
	validSchemas.Unlock()
	return nil
}
