package datafile

import (
	"math"

	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/icesql/icesql/iceberg"
)

// posDeleteMetrics fills the metrics of a position delete file as Java
// does (full metrics mode for file_path and pos: bounds are not truncated,
// so readers can tell which data files a delete file covers).
func posDeleteMetrics(df *iceberg.DataFile, md *metadata.FileMetaData, group []*pendingDeletes) error {
	df.ColumnSizes = map[int]int64{}
	for i := 0; i < md.NumRowGroups(); i++ {
		rg := md.RowGroup(i)
		for c, id := range []int{DeleteFilePathID, DeleteFilePosID} {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return err
			}
			df.ColumnSizes[id] += cc.TotalCompressedSize()
			if c == 0 {
				start := cc.DataPageOffset()
				if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
					start = cc.DictionaryPageOffset()
				}
				df.SplitOffsets = append(df.SplitOffsets, start)
			}
		}
	}
	df.ValueCounts = map[int]int64{DeleteFilePathID: df.RecordCount, DeleteFilePosID: df.RecordCount}
	df.NullValueCounts = map[int]int64{DeleteFilePathID: 0, DeleteFilePosID: 0}
	if df.RecordCount == 0 {
		return nil
	}
	minPos, maxPos := int64(math.MaxInt64), int64(math.MinInt64)
	for _, pd := range group {
		minPos = min(minPos, pd.positions[0])
		maxPos = max(maxPos, pd.positions[len(pd.positions)-1])
	}
	lowPath, _ := iceberg.SerializeValue(iceberg.StringType{}, group[0].file.FilePath)
	highPath, _ := iceberg.SerializeValue(iceberg.StringType{}, group[len(group)-1].file.FilePath)
	lowPos, _ := iceberg.SerializeValue(iceberg.LongType{}, minPos)
	highPos, _ := iceberg.SerializeValue(iceberg.LongType{}, maxPos)
	df.LowerBounds = map[int][]byte{DeleteFilePathID: lowPath, DeleteFilePosID: lowPos}
	df.UpperBounds = map[int][]byte{DeleteFilePathID: highPath, DeleteFilePosID: highPos}
	return nil
}
