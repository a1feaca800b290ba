package parquetfile

import (
	"fmt"
	"sync"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Codecs at a level other than the default, shared like the default ones
// (a zstd codec's encoders are costly to build), made on first use.
var (
	levelCodecsMu sync.Mutex
	levelCodecs   = map[string]compress.Codec{}
)

// codecFor is the codec of name at level (0: the codec's default). zstd
// levels 1-22 map onto the encoder's four speeds as its documentation
// pairs them (1-2 fastest, 3-6 default, 7-10 better, 11-22 best).
func codecFor(name string, level int) (compress.Codec, error) {
	codec, err := codecByName(name)
	if err != nil || level == 0 {
		return codec, err
	}
	var key string
	var newCodec func() compress.Codec
	switch codec {
	case zstdCodec:
		if level < 1 || level > 22 {
			return nil, fmt.Errorf("%w: zstd level %d (1-22)", ErrCompressionLevel, level)
		}
		speed := zstd.SpeedDefault
		switch {
		case level <= 2:
			speed = zstd.SpeedFastest
		case level <= 6:
			return zstdCodec, nil
		case level <= 10:
			speed = zstd.SpeedBetterCompression
		default:
			speed = zstd.SpeedBestCompression
		}
		key = fmt.Sprintf("zstd/%d", speed)
		newCodec = func() compress.Codec { return &zstd.Codec{Level: speed} }
	case gzipCodec:
		if level < 1 || level > 9 {
			return nil, fmt.Errorf("%w: gzip level %d (1-9)", ErrCompressionLevel, level)
		}
		key = fmt.Sprintf("gzip/%d", level)
		newCodec = func() compress.Codec { return &gzip.Codec{Level: level} }
	default:
		return codec, nil // snappy and uncompressed have no levels
	}
	levelCodecsMu.Lock()
	defer levelCodecsMu.Unlock()
	c, ok := levelCodecs[key]
	if !ok {
		c = newCodec()
		levelCodecs[key] = c
	}
	return c, nil
}
