package table

import (
	"crypto/rand"
	"encoding/binary"
)

// newSnapshotID returns a random positive id not used by the table, as
// Java derives one from a random UUID.
func newSnapshotID(used func(int64) bool) int64 {
	for {
		var b [8]byte
		rand.Read(b[:])
		id := int64(binary.BigEndian.Uint64(b[:]) & (1<<63 - 1))
		if id != 0 && !used(id) {
			return id
		}
	}
}
