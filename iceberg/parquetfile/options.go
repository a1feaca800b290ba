package parquetfile

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/icesql/icesql/iceberg"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/uncompressed"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Table property names read by OptionsFromProperties.
const (
	PropCompressionCodec  = "write.parquet.compression-codec"
	PropRowGroupSizeBytes = "write.parquet.row-group-size-bytes"
	PropPageSizeBytes     = "write.parquet.page-size-bytes"
	PropPageRowLimit      = "write.parquet.page-row-limit"
	PropDictSizeBytes     = "write.parquet.dict-size-bytes"
	PropCompressionLevel  = "write.parquet.compression-level"
	PropTargetFileSize    = "write.target-file-size-bytes"
	PropRowGroupRowLimit  = iceberg.PropRowGroupRowLimit
)

// WriterOptions configure a Writer. Zero values take the defaults.
type WriterOptions struct {
	// Compression is the codec name: "zstd" (default), "snappy", "gzip" or
	// "uncompressed" ("none" is accepted too).
	Compression string
	// RowGroupSizeBytes is the target (uncompressed, estimated) row group
	// size; default 128 MiB.
	RowGroupSizeBytes int64
	// RowGroupRowLimit caps the rows of a row group; default
	// DefaultRowGroupRowLimit, negative for none (row groups cut by
	// RowGroupSizeBytes alone, as Java's writer). Java's 128 MiB target
	// is measured on encoded bytes, so a narrow, well-compressed table
	// gets one row group per file, which no reader can skip within: the
	// cap keeps selective scans pruning by row group statistics.
	RowGroupRowLimit int64
	// PageSizeBytes is the target page size; default 1 MiB.
	PageSizeBytes int
	// PageRowLimit caps the rows of a page; 0 (the default) cuts pages
	// by PageSizeBytes only. Java's writer caps pages at 20,000 rows so
	// that readers using the page index skip finer; this package's reader
	// does not use the page index yet, and on the interop benchmark's
	// table 20,000-row pages cost a full scan 15% more CPU and the file
	// 38% more bytes. Set it for files read mostly by such engines.
	PageRowLimit int
	// DictSizeBytes caps a column chunk's dictionary page; past it the
	// chunk continues in PLAIN. Default 2 MiB, as Java.
	DictSizeBytes int
	// CompressionLevel is the codec's level (zstd 1-22, gzip 1-9); 0
	// takes the codec's default. Ignored by snappy and uncompressed.
	CompressionLevel int
	// TruncateLength cuts string and binary bounds (Java's truncate(16)
	// metrics mode); default 16. Negative disables bounds.
	TruncateLength int
	// KeyValueMetadata is added to the file footer.
	KeyValueMetadata map[string]string
	// Concurrency bounds the pages encoded and compressed in parallel
	// (across columns, beside the caller's goroutine); default GOMAXPROCS.
	// 1 encodes every page on the calling goroutine.
	Concurrency int
}

// DefaultRowGroupRowLimit is WriterOptions.RowGroupRowLimit's default.
var DefaultRowGroupRowLimit int64 = 1 << 17

// OptionsFromProperties reads the write.parquet.* table properties.
func OptionsFromProperties(props map[string]string) (WriterOptions, error) {
	var o WriterOptions
	o.Compression = props[PropCompressionCodec]
	if _, err := codecByName(o.Compression); err != nil {
		return o, err
	}
	if v, ok := props[PropRowGroupSizeBytes]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("parquetfile: %s=%q is not a positive integer", PropRowGroupSizeBytes, v)
		}
		o.RowGroupSizeBytes = n
	}
	if v, ok := props[PropRowGroupRowLimit]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n == 0 || n < -1 {
			return o, fmt.Errorf("parquetfile: %s=%q is not a positive integer or -1 (no limit)", PropRowGroupRowLimit, v)
		}
		o.RowGroupRowLimit = n
	}
	if v, ok := props[PropPageSizeBytes]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("parquetfile: %s=%q is not a positive integer", PropPageSizeBytes, v)
		}
		o.PageSizeBytes = n
	}
	if v, ok := props[PropDictSizeBytes]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("parquetfile: %s=%q is not a positive integer", PropDictSizeBytes, v)
		}
		o.DictSizeBytes = n
	}
	if v, ok := props[PropPageRowLimit]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("parquetfile: %s=%q is not a positive integer", PropPageRowLimit, v)
		}
		o.PageRowLimit = n
	}
	if v, ok := props[PropCompressionLevel]; ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return o, fmt.Errorf("parquetfile: %s=%q is not an integer", PropCompressionLevel, v)
		}
		if _, err := codecFor(o.Compression, n); err != nil {
			return o, err
		}
		o.CompressionLevel = n
	}
	return o, nil
}

func (o WriterOptions) withDefaults() WriterOptions {
	if o.RowGroupSizeBytes <= 0 {
		o.RowGroupSizeBytes = 128 << 20
	}
	if o.RowGroupRowLimit == 0 {
		o.RowGroupRowLimit = DefaultRowGroupRowLimit
	}
	if o.PageSizeBytes <= 0 {
		o.PageSizeBytes = 1 << 20
	}
	if o.DictSizeBytes <= 0 {
		o.DictSizeBytes = 2 << 20
	}
	if o.Concurrency <= 0 {
		o.Concurrency = runtime.GOMAXPROCS(0)
	}
	if o.TruncateLength == 0 {
		o.TruncateLength = 16
	}
	return o
}

// Codecs are shared by every writer: each keeps a pool of encoders
// (sync.Pool, safe for concurrent use), and a zstd encoder costs megabytes
// of history buffers to build, which a codec per file paid for every
// file, however small.
var (
	zstdCodec         = &zstd.Codec{Level: zstd.SpeedDefault}
	snappyCodec       = &snappy.Codec{}
	gzipCodec         = &gzip.Codec{Level: gzip.DefaultCompression}
	uncompressedCodec = &uncompressed.Codec{}
)

func codecByName(name string) (compress.Codec, error) {
	switch strings.ToLower(name) {
	case "", "zstd":
		return zstdCodec, nil
	case "snappy":
		return snappyCodec, nil
	case "gzip":
		return gzipCodec, nil
	case "uncompressed", "none":
		return uncompressedCodec, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownCodec, name)
}
