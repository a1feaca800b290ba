package parquetfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/icesql/icesql/iceberg"
)

// maxThriftDepth bounds struct and container nesting in a footer; real
// footers nest a handful of levels, and parquet-go decodes recursively.
const maxThriftDepth = 64

// MaxFooterBytes bounds a file's footer (its metadata, which is read
// whole): a longer footer length is refused with iceberg.ErrTooLarge
// before anything is allocated. Real footers are kilobytes to a few
// megabytes (thousands of row groups of wide tables).
const MaxFooterBytes = 256 << 20

// checkFooter reads the footer of a file of size bytes and checks what
// parquet-go trusts when decoding it: the footer length (it allocates
// that much) and every list, set and map length (it makes slices of
// that many elements), which must be backed by the footer's bytes.
func checkFooter(r io.ReaderAt, size int64) error {
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil && err != io.EOF {
		return fmt.Errorf("reading footer: %w", err)
	}
	if string(tail[4:]) == "PARE" {
		return ErrEncrypted
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("no parquet magic at the end of the file (%q)", tail[4:])
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("footer of %d bytes in a file of %d", n, size)
	}
	if n > MaxFooterBytes {
		return fmt.Errorf("%w: footer of %d bytes, the limit is %d", iceberg.ErrTooLarge, n, MaxFooterBytes)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil && err != io.EOF {
		return fmt.Errorf("reading footer: %w", err)
	}
	w := thriftWalker{b: footer}
	if err := w.structure(0); err != nil {
		return err
	}
	if w.encrypted {
		return ErrEncrypted
	}
	return nil
}

// fileMetaDataEncryption is the id of FileMetaData.encryption_algorithm,
// set only in the plaintext footers of encrypted files.
const fileMetaDataEncryption = 8

// thriftWalker walks Thrift compact-protocol bytes without decoding them.
type thriftWalker struct {
	b         []byte
	pos       int
	encrypted bool // the top-level struct has an encryption_algorithm
}

var errThriftTruncated = errors.New("footer truncated")

func (w *thriftWalker) byte() (byte, error) {
	if w.pos >= len(w.b) {
		return 0, errThriftTruncated
	}
	w.pos++
	return w.b[w.pos-1], nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.pos:])
	if n <= 0 {
		return 0, errThriftTruncated
	}
	w.pos += n
	return v, nil
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(len(w.b)-w.pos) {
		return errThriftTruncated
	}
	w.pos += int(n)
	return nil
}

func (w *thriftWalker) structure(depth int) error {
	if depth > maxThriftDepth {
		return fmt.Errorf("footer nested deeper than %d levels", maxThriftDepth)
	}
	var id uint64
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 { // stop
			return nil
		}
		if h>>4 == 0 { // long form: the field id follows (zigzag i16)
			v, err := w.uvarint()
			if err != nil {
				return err
			}
			id = v >> 1
		} else {
			id += uint64(h >> 4)
		}
		if depth == 0 && id == fileMetaDataEncryption {
			w.encrypted = true
		}
		if err := w.value(h&0x0f, depth); err != nil {
			return err
		}
	}
}

// value skips one value of compact type t.
func (w *thriftWalker) value(t byte, depth int) error {
	switch t {
	case 1, 2: // boolean in a field header: no payload
		return nil
	case 3:
		return w.skip(1)
	case 4, 5, 6:
		_, err := w.uvarint()
		return err
	case 7:
		return w.skip(8)
	case 8:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case 9, 10:
		h, err := w.byte()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 0x0f {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		return w.elements(n, []byte{h & 0x0f}, depth)
	case 11:
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		return w.elements(n, []byte{kv >> 4, kv & 0x0f}, depth)
	case 12:
		return w.structure(depth + 1)
	}
	return fmt.Errorf("footer holds unknown thrift type %d", t)
}

// elements skips n container elements, each a value of the given types;
// every element takes at least a byte, so n beyond the bytes left is
// corrupt (and would size a huge slice).
func (w *thriftWalker) elements(n uint64, types []byte, depth int) error {
	if n > uint64(len(w.b)-w.pos) {
		return fmt.Errorf("footer list of %d elements in %d bytes", n, len(w.b)-w.pos)
	}
	for range n {
		for _, t := range types {
			if t == 1 || t == 2 { // booleans in containers take a byte
				t = 3
			}
			if err := w.value(t, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
