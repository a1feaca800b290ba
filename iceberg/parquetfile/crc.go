package parquetfile

import (
	"fmt"
	"hash/crc32"

	"github.com/parquet-go/parquet-go/format"
)

// Page checksums: the optional crc field of a page header is the CRC-32
// (IEEE) of the page's bytes as stored (compressed), as parquet-mr writes
// it. Writers here always set it; readers verify it whenever a page has
// one (parquet-go's page reader does too), so a damaged page is an error,
// never wrong values. A CRC that happens to be 0 is indistinguishable
// from none (the field is omitted) and is not checked.

func pageCRC(stored []byte) int32 { return int32(crc32.ChecksumIEEE(stored)) }

// checkPageCRC verifies a page's stored bytes against its header.
func checkPageCRC(h *format.PageHeader, stored []byte) error {
	if h.CRC == 0 {
		return nil
	}
	if got := pageCRC(stored); got != h.CRC {
		return fmt.Errorf("page checksum mismatch (header 0x%08X, bytes 0x%08X)", uint32(h.CRC), uint32(got))
	}
	return nil
}
