package fileio

import (
	"fmt"
	"io"
)

// ReadAll reads a whole file of at most limit bytes. The size is checked
// before anything is allocated (a huge or sparse file costs nothing), and
// the read stops at the size Open saw, so a file growing meanwhile cannot
// make it read on: a larger file is a *PathError wrapping ErrTooLarge.
func ReadAll(f InputFile, limit int64) ([]byte, error) {
	size := f.Size()
	if size > limit {
		return nil, &PathError{Op: "read", Location: f.Location(),
			Err: fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, size, limit)}
	}
	if size < 0 {
		size = 0
	}
	buf := make([]byte, size)
	n, err := f.ReadAt(buf, 0)
	if n < len(buf) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, &PathError{Op: "read", Location: f.Location(), Err: err}
	}
	return buf, nil
}
