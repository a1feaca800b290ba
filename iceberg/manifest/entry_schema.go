package manifest

import (
	"github.com/icesql/icesql/iceberg"
)

// Field ids of manifest_entry and data_file.
const (
	idStatus             = 0
	idEntrySnapshotID    = 1
	idDataFile           = 2
	idEntrySequence      = 3
	idFileSequence       = 4
	idFilePath           = 100
	idFileFormat         = 101
	idPartition          = 102
	idRecordCount        = 103
	idFileSize           = 104
	idBlockSize          = 105
	idColumnSizes        = 108
	idValueCounts        = 109
	idNullValueCounts    = 110
	idLowerBounds        = 125
	idUpperBounds        = 128
	idKeyMetadata        = 131
	idSplitOffsets       = 132
	idSplitOffsetElement = 133
	idContent            = 134
	idEqualityIDs        = 135
	idEqualityIDElement  = 136
	idNaNValueCounts     = 137
	idSortOrderID        = 140
	idFirstRowID         = 142
	idReferencedDataFile = 143
	idContentOffset      = 144
	idContentSize        = 145
)

// v1BlockSize is written for the v1-only block_size_in_bytes field, as Java does.
const v1BlockSize = 64 * 1024 * 1024

// mapIDs are the key and value ids of the int-keyed metric maps.
var mapIDs = map[int][2]int{
	idColumnSizes:     {117, 118},
	idValueCounts:     {119, 120},
	idNullValueCounts: {121, 122},
	idNaNValueCounts:  {138, 139},
	idLowerBounds:     {126, 127},
	idUpperBounds:     {129, 130},
}

// dataFileOrder is the data_file field order Java writes per version.
func dataFileOrder(version int) []int {
	switch version {
	case 1:
		return []int{idFilePath, idFileFormat, idPartition, idRecordCount, idFileSize, idBlockSize,
			idColumnSizes, idValueCounts, idNullValueCounts, idNaNValueCounts, idLowerBounds, idUpperBounds,
			idKeyMetadata, idSplitOffsets, idSortOrderID}
	case 2:
		return []int{idContent, idFilePath, idFileFormat, idPartition, idRecordCount, idFileSize,
			idColumnSizes, idValueCounts, idNullValueCounts, idNaNValueCounts, idLowerBounds, idUpperBounds,
			idKeyMetadata, idSplitOffsets, idEqualityIDs, idSortOrderID, idReferencedDataFile}
	default:
		return []int{idContent, idFilePath, idFileFormat, idPartition, idRecordCount, idFileSize,
			idColumnSizes, idValueCounts, idNullValueCounts, idNaNValueCounts, idLowerBounds, idUpperBounds,
			idKeyMetadata, idSplitOffsets, idEqualityIDs, idSortOrderID, idFirstRowID, idReferencedDataFile,
			idContentOffset, idContentSize}
	}
}

// dataFileField returns a data_file field's name, Avro type and whether it
// is optional.
func dataFileField(id int, partition any) (string, any, bool) {
	switch id {
	case idContent:
		return "content", "int", false
	case idFilePath:
		return "file_path", "string", false
	case idFileFormat:
		return "file_format", "string", false
	case idPartition:
		return "partition", partition, false
	case idRecordCount:
		return "record_count", "long", false
	case idFileSize:
		return "file_size_in_bytes", "long", false
	case idBlockSize:
		return "block_size_in_bytes", "long", false
	case idColumnSizes:
		return "column_sizes", avroIntKeyMap(117, 118, "long"), true
	case idValueCounts:
		return "value_counts", avroIntKeyMap(119, 120, "long"), true
	case idNullValueCounts:
		return "null_value_counts", avroIntKeyMap(121, 122, "long"), true
	case idNaNValueCounts:
		return "nan_value_counts", avroIntKeyMap(138, 139, "long"), true
	case idLowerBounds:
		return "lower_bounds", avroIntKeyMap(126, 127, "bytes"), true
	case idUpperBounds:
		return "upper_bounds", avroIntKeyMap(129, 130, "bytes"), true
	case idKeyMetadata:
		return "key_metadata", "bytes", true
	case idSplitOffsets:
		return "split_offsets", avroList(idSplitOffsetElement, "long"), true
	case idEqualityIDs:
		return "equality_ids", avroList(idEqualityIDElement, "int"), true
	case idSortOrderID:
		return "sort_order_id", "int", true
	case idFirstRowID:
		return "first_row_id", "long", true
	case idReferencedDataFile:
		return "referenced_data_file", "string", true
	case idContentOffset:
		return "content_offset", "long", true
	case idContentSize:
		return "content_size_in_bytes", "long", true
	}
	panic("manifest: unknown data_file field id") // unreachable: ids come from dataFileOrder
}

// partitionAvroType is the r102 record for a partition type: one optional
// field per partition field, carrying the partition field id.
func partitionAvroType(pt *iceberg.StructType) (obj, error) {
	names := typeNamer{}
	fields := make([]obj, 0, len(pt.FieldList))
	for _, f := range pt.FieldList {
		t, err := avroPrimitive(f.Type, names)
		if err != nil {
			return nil, err
		}
		fields = append(fields, avroField(f.ID, f.Name, t, true))
	}
	return avroRecord("r102", fields), nil
}

// manifestEntrySchema is the Avro schema of a manifest for a version and
// partition type.
func manifestEntrySchema(version int, pt *iceberg.StructType) (obj, error) {
	part, err := partitionAvroType(pt)
	if err != nil {
		return nil, err
	}
	order := dataFileOrder(version)
	df := make([]obj, 0, len(order))
	for _, id := range order {
		name, typ, opt := dataFileField(id, part)
		df = append(df, avroField(id, name, typ, opt))
	}
	dataFile := avroRecord("r2", df)
	if version == 1 {
		return avroRecord("manifest_entry", []obj{
			avroField(idStatus, "status", "int", false),
			avroField(idEntrySnapshotID, "snapshot_id", "long", false),
			avroField(idDataFile, "data_file", dataFile, false),
		}), nil
	}
	return avroRecord("manifest_entry", []obj{
		avroField(idStatus, "status", "int", false),
		avroField(idEntrySnapshotID, "snapshot_id", "long", true),
		avroField(idEntrySequence, "sequence_number", "long", true),
		avroField(idFileSequence, "file_sequence_number", "long", true),
		avroField(idDataFile, "data_file", dataFile, false),
	}), nil
}
