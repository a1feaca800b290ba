package manifest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// appendEntry encodes one manifest_entry in the field order of
// manifestEntrySchema.
func appendEntry(b []byte, version int, e *iceberg.ManifestEntry, pt *iceberg.StructType) ([]byte, error) {
	b = appendInt(b, int32(e.Status))
	if version == 1 {
		b = appendLong(b, *e.SnapshotID) // the writer fills it in for v1
	} else {
		b = appendOptLong(b, e.SnapshotID)
		b = appendOptLong(b, e.SequenceNumber)
		b = appendOptLong(b, e.FileSequenceNumber)
	}
	return appendDataFile(b, version, &e.DataFile, pt)
}

func appendOptLong(b []byte, v *int64) []byte {
	if v == nil {
		return appendNull(b)
	}
	return appendLong(appendSome(b), *v)
}

func appendOptInt(b []byte, v *int) []byte {
	if v == nil {
		return appendNull(b)
	}
	return appendInt(appendSome(b), int32(*v))
}

func appendOptString(b []byte, v *string) []byte {
	if v == nil {
		return appendNull(b)
	}
	return appendString(appendSome(b), *v)
}

func appendDataFile(b []byte, version int, df *iceberg.DataFile, pt *iceberg.StructType) ([]byte, error) {
	var err error
	for _, id := range dataFileOrder(version) {
		switch id {
		case idContent:
			b = appendInt(b, int32(df.Content))
		case idFilePath:
			b = appendString(b, df.FilePath)
		case idFileFormat:
			b = appendString(b, strings.ToUpper(string(df.FileFormat)))
		case idPartition:
			if b, err = appendPartition(b, df.Partition, pt); err != nil {
				return nil, err
			}
		case idRecordCount:
			b = appendLong(b, df.RecordCount)
		case idFileSize:
			b = appendLong(b, df.FileSizeInBytes)
		case idBlockSize:
			b = appendLong(b, v1BlockSize)
		case idColumnSizes:
			b = appendCountMap(b, df.ColumnSizes)
		case idValueCounts:
			b = appendCountMap(b, df.ValueCounts)
		case idNullValueCounts:
			b = appendCountMap(b, df.NullValueCounts)
		case idNaNValueCounts:
			b = appendCountMap(b, df.NaNValueCounts)
		case idLowerBounds:
			b = appendBoundMap(b, df.LowerBounds)
		case idUpperBounds:
			b = appendBoundMap(b, df.UpperBounds)
		case idKeyMetadata:
			b = appendOptBytes(b, df.KeyMetadata)
		case idSplitOffsets:
			b = appendLongList(b, df.SplitOffsets)
		case idEqualityIDs:
			b = appendIntList(b, df.EqualityIDs)
		case idSortOrderID:
			b = appendOptInt(b, df.SortOrderID)
		case idFirstRowID:
			b = appendOptLong(b, df.FirstRowID)
		case idReferencedDataFile:
			b = appendOptString(b, df.ReferencedDataFile)
		case idContentOffset:
			b = appendOptLong(b, df.ContentOffset)
		case idContentSize:
			b = appendOptLong(b, df.ContentSizeInBytes)
		}
	}
	return b, nil
}

func appendPartition(b []byte, values []any, pt *iceberg.StructType) ([]byte, error) {
	if len(values) != len(pt.FieldList) {
		return nil, fmt.Errorf("%w: partition tuple has %d values, the spec has %d fields",
			ErrInvalidEntry, len(values), len(pt.FieldList))
	}
	var err error
	for i, f := range pt.FieldList {
		if values[i] == nil {
			b = appendNull(b)
			continue
		}
		if b, err = appendPartitionValue(appendSome(b), f, values[i]); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Maps are written in key order so files are deterministic.
func appendCountMap(b []byte, m map[int]int64) []byte {
	return appendIntKeyMap(b, m, appendLong)
}

func appendBoundMap(b []byte, m map[int][]byte) []byte {
	return appendIntKeyMap(b, m, appendBytes)
}

// appendIntKeyMap writes an optional int-keyed map as Iceberg stores maps
// in Avro: an array of key/value records, here in one block.
func appendIntKeyMap[V any](b []byte, m map[int]V, appendValue func([]byte, V) []byte) []byte {
	if m == nil {
		return appendNull(b)
	}
	b = appendSome(b)
	if len(m) > 0 {
		b = appendLong(b, int64(len(m)))
		for _, k := range sortedKeys(m) {
			b = appendValue(appendInt(b, int32(k)), m[k])
		}
	}
	return appendLong(b, 0)
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func appendLongList(b []byte, l []int64) []byte {
	return appendList(b, l, appendLong)
}

func appendIntList(b []byte, l []int) []byte {
	return appendList(b, l, func(b []byte, v int) []byte { return appendInt(b, int32(v)) })
}

// appendList writes an optional list as one Avro array block.
func appendList[V any](b []byte, l []V, appendValue func([]byte, V) []byte) []byte {
	if l == nil {
		return appendNull(b)
	}
	b = appendSome(b)
	if len(l) > 0 {
		b = appendLong(b, int64(len(l)))
		for _, v := range l {
			b = appendValue(b, v)
		}
	}
	return appendLong(b, 0)
}
