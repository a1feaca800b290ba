package datafile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/icesql/icesql/iceberg/arrowschema"
)

// Reserved field ids and names of position delete files.
const (
	DeleteFilePathID   = 2147483546
	DeleteFilePosID    = 2147483545
	DeleteFilePathName = "file_path"
	DeleteFilePosName  = "pos"
)

// Position delete files are written and read with arrow-go's Parquet
// package rather than parquetfile: their reserved field ids are above
// iceberg.MaxUserFieldID, so they cannot be expressed as an iceberg.Schema.
var posDeleteArrowSchema = arrow.NewSchema([]arrow.Field{
	{Name: DeleteFilePathName, Type: arrow.BinaryTypes.String, Metadata: idMeta(DeleteFilePathID)},
	{Name: DeleteFilePosName, Type: arrow.PrimitiveTypes.Int64, Metadata: idMeta(DeleteFilePosID)},
}, nil)

func idMeta(id int) arrow.Metadata {
	return arrow.NewMetadata([]string{arrowschema.FieldIDKey}, []string{strconv.Itoa(id)})
}

// arrowCodec maps the write.parquet.compression-codec names to arrow-go.
func arrowCodec(name string) (compress.Compression, error) {
	switch strings.ToLower(name) {
	case "", "zstd":
		return compress.Codecs.Zstd, nil
	case "snappy":
		return compress.Codecs.Snappy, nil
	case "gzip":
		return compress.Codecs.Gzip, nil
	case "uncompressed", "none":
		return compress.Codecs.Uncompressed, nil
	}
	return 0, fmt.Errorf("%w: unknown compression codec %q", ErrBadProperty, name)
}

func posDeleteWriterProps(codec compress.Compression) *parquet.WriterProperties {
	return parquet.NewWriterProperties(
		parquet.WithCompression(codec),
		parquet.WithStats(true),
		parquet.WithDictionaryDefault(true),
		parquet.WithCreatedBy("icesql"),
	)
}
