package parquetfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

// A file with an encrypted footer ends in "PARE": it is refused as
// encrypted (not as a file that is not Parquet).
func TestEncryptedFooterRefused(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("PARE")
	b.Write(make([]byte, 64))
	b.Write(binary.LittleEndian.AppendUint32(nil, 64))
	b.WriteString("PARE")
	_, err := Open(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if !errors.Is(err, ErrEncrypted) || !errors.Is(err, iceberg.ErrUnsupported) {
		t.Fatalf("got %v, want ErrEncrypted", err)
	}
}
