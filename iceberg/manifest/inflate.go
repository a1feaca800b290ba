package manifest

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
)

// inflate decompresses a raw deflate block, refusing output beyond
// maxBlockSize.
func inflate(raw []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, maxBlockSize+1))
	if err != nil {
		return nil, err
	}
	if len(out) > maxBlockSize {
		return nil, errors.New("decompressed block too large")
	}
	return out, nil
}
