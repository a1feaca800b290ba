package manifest

import (
	"bytes"
	"fmt"
	"io"

	"github.com/icesql/icesql/iceberg"
)

// MaxFileBytes bounds a manifest or manifest list, which is read whole
// into memory: larger files are refused with iceberg.ErrTooLarge (Java
// writes manifests of 8 MiB by default).
const MaxFileBytes = 512 << 20

// sized is what fileio.InputFile adds to a reader: its size, known
// before reading.
type sized interface{ Size() int64 }

// readAll reads a whole container file: refused unread when r says it
// is larger than MaxFileBytes, refused after four bytes when it is not
// an Avro container, and never read past MaxFileBytes otherwise.
func readAll(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	if s, ok := r.(sized); ok {
		if n := s.Size(); n > MaxFileBytes {
			return nil, fmt.Errorf("%w: %d bytes, the limit is %d", iceberg.ErrTooLarge, n, MaxFileBytes)
		} else if n > 0 {
			buf.Grow(int(n) + bytes.MinRead)
		}
	}
	if _, err := io.CopyN(&buf, r, int64(len(avroMagic))); err != nil && err != io.EOF {
		return nil, err
	}
	if !bytes.Equal(buf.Bytes(), avroMagic[:len(buf.Bytes())]) || buf.Len() < len(avroMagic) {
		return buf.Bytes(), nil // readContainer names what is wrong
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, MaxFileBytes+1-int64(len(avroMagic)))); err != nil {
		return nil, err
	}
	if buf.Len() > MaxFileBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", iceberg.ErrTooLarge, MaxFileBytes)
	}
	return buf.Bytes(), nil
}
