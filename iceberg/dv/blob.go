package dv

import (
	"encoding/binary"
	"hash/crc32"
	"math"
)

// BlobType is the Puffin blob type of a deletion vector.
const BlobType = "deletion-vector-v1"

// Blob properties a deletion vector's Puffin metadata must carry.
const (
	PropReferencedDataFile = "referenced-data-file"
	PropCardinality        = "cardinality"
)

// RowPositionFieldID is the reserved field id of _pos, listed as the
// blob's only field.
const RowPositionFieldID = math.MaxInt32 - 2

// magic opens the checksummed part of a deletion-vector-v1 blob.
var magic = [4]byte{0xD1, 0xD3, 0x39, 0x64}

// EncodeBlob serializes positions (sorted, unique, non-negative) as a
// deletion-vector-v1 blob: the big-endian length of magic and bitmap, the
// magic, the portable bitmap, and a big-endian CRC-32 of magic and bitmap.
func EncodeBlob(positions []int64) ([]byte, error) {
	if err := checkPositions(positions); err != nil {
		return nil, err
	}
	b := make([]byte, 4, 16+len(positions)*2)
	b = append(b, magic[:]...)
	b = appendBitmap(b, positions)
	if len(b)-4 > math.MaxInt32 {
		return nil, ErrTooLarge
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:])), nil
}

// DecodeBlob checks a deletion-vector-v1 blob's length, magic and
// checksum and returns its positions (see DecodeBitmap for maxPositions).
func DecodeBlob(b []byte, maxPositions int64) ([]int64, error) {
	if len(b) < 12 {
		return nil, corruptf(0, "blob of %d bytes is shorter than its framing", len(b))
	}
	n := binary.BigEndian.Uint32(b)
	if int64(n) != int64(len(b))-8 {
		return nil, corruptf(0, "length field %d does not match the blob's %d bytes", n, len(b))
	}
	body := b[4 : len(b)-4]
	if [4]byte(body[:4]) != magic {
		return nil, corruptf(4, "bad magic % x", body[:4])
	}
	if want, got := binary.BigEndian.Uint32(b[len(b)-4:]), crc32.ChecksumIEEE(body); want != got {
		return nil, corruptf(len(b)-4, "CRC-32 %08x does not match the computed %08x", want, got)
	}
	out, err := DecodeBitmap(body[4:], maxPositions)
	if ce, ok := err.(*CorruptError); ok {
		ce.Offset += 8
	}
	return out, err
}

// Union merges two sorted, unique position lists.
func Union(a, b []int64) []int64 {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]int64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
