package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/klauspost/compress/zstd"
)

// maxBlockSize bounds one compressed or decompressed Avro block, so a
// corrupt length cannot make the reader allocate without limit.
const maxBlockSize = 256 << 20

// container is a parsed Avro object container file held in memory. The
// framing is read here rather than by hamba's ocf decoder because that
// decoder binds values to the writer schema by name and trusts block sizes.
type container struct {
	meta   map[string][]byte
	schema avro.Schema
	codec  string
	sync   [16]byte
	rest   []byte // the data blocks
}

var errShort = errors.New("unexpected end of file")

var avroMagic = []byte{'O', 'b', 'j', 1}

// byteReader reads Avro's framing primitives with bounds checks.
type byteReader struct {
	b   []byte
	pos int
}

func (r *byteReader) long() (int64, error) {
	var u uint64
	for shift := uint(0); ; shift += 7 {
		if shift >= 64 {
			return 0, errors.New("varint overflows a long")
		}
		if r.pos >= len(r.b) {
			return 0, errShort
		}
		c := r.b[r.pos]
		r.pos++
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	return int64(u>>1) ^ -int64(u&1), nil
}

func (r *byteReader) bytes(n int64) ([]byte, error) {
	if n < 0 || n > int64(len(r.b)-r.pos) {
		return nil, fmt.Errorf("length %d exceeds the %d bytes left", n, len(r.b)-r.pos)
	}
	out := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return out, nil
}

func readContainer(data []byte) (*container, error) {
	r := &byteReader{b: data}
	magic, err := r.bytes(4)
	if err != nil || !bytes.Equal(magic, avroMagic) {
		return nil, errors.New("not an avro object container file (bad magic)")
	}
	meta := map[string][]byte{}
	for {
		n, err := r.long()
		if err != nil {
			return nil, fmt.Errorf("header metadata: %w", err)
		}
		if n == 0 {
			break
		}
		if n < 0 {
			n = -n
			if _, err := r.long(); err != nil { // block byte size, unused
				return nil, fmt.Errorf("header metadata: %w", err)
			}
		}
		for i := int64(0); i < n; i++ {
			kl, err := r.long()
			if err != nil {
				return nil, fmt.Errorf("header metadata: %w", err)
			}
			k, err := r.bytes(kl)
			if err != nil {
				return nil, fmt.Errorf("header metadata key: %w", err)
			}
			vl, err := r.long()
			if err != nil {
				return nil, fmt.Errorf("header metadata: %w", err)
			}
			v, err := r.bytes(vl)
			if err != nil {
				return nil, fmt.Errorf("header metadata value: %w", err)
			}
			meta[string(k)] = v
		}
	}
	syncBytes, err := r.bytes(16)
	if err != nil {
		return nil, fmt.Errorf("header sync marker: %w", err)
	}
	c := &container{meta: meta, codec: string(meta["avro.codec"]), rest: data[r.pos:]}
	copy(c.sync[:], syncBytes)
	if c.codec == "" {
		c.codec = "null"
	}
	switch c.codec {
	case "null", "deflate", "snappy", "zstandard":
	default:
		return nil, fmt.Errorf("%w %q", ErrUnsupportedCodec, c.codec)
	}
	schemaText, ok := meta["avro.schema"]
	if !ok {
		return nil, errors.New("header has no avro.schema")
	}
	c.schema, err = parseSchema(schemaText)
	if err != nil {
		return nil, fmt.Errorf("avro.schema: %w", err)
	}
	return c, nil
}

// parsedSchemas caches writer schemas by their text: a table's manifests
// share a handful of schemas, and parsing dominates reading small files.
// Parsed schemas are immutable, so sharing them is safe.
var parsedSchemas struct {
	sync.Mutex
	m map[string]avro.Schema
}

const maxCachedSchemas = 256

func parseSchema(text []byte) (avro.Schema, error) {
	parsedSchemas.Lock()
	s, ok := parsedSchemas.m[string(text)]
	parsedSchemas.Unlock()
	if ok {
		return s, nil
	}
	// A fresh cache per file: named types (r102, decimal_9_2) differ between files.
	s, err := avro.ParseBytesWithCache(text, "", &avro.SchemaCache{})
	if err != nil {
		return nil, err
	}
	parsedSchemas.Lock()
	if parsedSchemas.m == nil || len(parsedSchemas.m) >= maxCachedSchemas {
		parsedSchemas.m = map[string]avro.Schema{}
	}
	parsedSchemas.m[string(text)] = s
	parsedSchemas.Unlock()
	return s, nil
}

var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxBlockSize))
})

// blocks yields each data block's record count and decompressed bytes.
// block is one decompressed data block.
type block struct {
	count int64
	data  []byte
}

func (c *container) blocks(yield func(block, error) bool) {
	r := &byteReader{b: c.rest}
	for r.pos < len(r.b) {
		count, err := r.long()
		if err != nil {
			yield(block{}, fmt.Errorf("block header: %w", err))
			return
		}
		size, err := r.long()
		if err != nil {
			yield(block{}, fmt.Errorf("block header: %w", err))
			return
		}
		if count < 0 || size > maxBlockSize {
			yield(block{}, fmt.Errorf("block header: invalid count %d or size %d", count, size))
			return
		}
		raw, err := r.bytes(size)
		if err != nil {
			yield(block{}, fmt.Errorf("block: %w", err))
			return
		}
		mark, err := r.bytes(16)
		if err != nil || !bytes.Equal(mark, c.sync[:]) {
			yield(block{}, errors.New("block: sync marker mismatch"))
			return
		}
		data, err := c.decompress(raw)
		if err != nil {
			yield(block{}, fmt.Errorf("block (%s): %w", c.codec, err))
			return
		}
		if !yield(block{count, data}, nil) {
			return
		}
	}
}

func (c *container) decompress(raw []byte) ([]byte, error) {
	switch c.codec {
	case "deflate":
		return inflate(raw)
	case "snappy":
		return (&ocf.SnappyCodec{}).Decode(raw)
	case "zstandard":
		dec, err := zstdDecoder()
		if err != nil {
			return nil, err
		}
		return dec.DecodeAll(raw, nil)
	}
	return raw, nil
}
