package export

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

type parquetWriter struct{ fw *pqarrow.FileWriter }

func newParquetWriter(w io.Writer, s *arrow.Schema) (*parquetWriter, error) {
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithStats(true),
		parquet.WithDictionaryDefault(true),
		parquet.WithCreatedBy("icesql"),
	)
	// The writer closes its sink; the caller owns w.
	fw, err := pqarrow.NewFileWriter(s, struct{ io.Writer }{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	return &parquetWriter{fw: fw}, nil
}

func (p *parquetWriter) write(b arrow.RecordBatch) error { return p.fw.WriteBuffered(b) }
func (p *parquetWriter) close() error                    { return p.fw.Close() }
func (p *parquetWriter) abort()                          { p.fw.Close() }
