package scan

import (
	"unsafe"

	"github.com/icesql/icesql/iceberg"
)

// Sizes estimate the heap a decoded value holds, close enough to bound a
// cache by bytes: struct sizes plus the bytes behind strings, slices,
// pointers and map entries (a map entry is counted at twice its key and
// value sizes for buckets and overhead).
const (
	itemOverhead    = 128 // list element, map slot and key header
	ifaceSize       = int64(unsafe.Sizeof(any(nil)))
	boxedValueSize  = 16
	mapEntryCounts  = 2 * (8 + 8)
	mapEntryBytes   = 2 * (8 + int64(unsafe.Sizeof([]byte(nil))))
	pointerTarget   = 8
	manifestEntrySz = int64(unsafe.Sizeof(iceberg.ManifestEntry{}))
	manifestFileSz  = int64(unsafe.Sizeof(iceberg.ManifestFile{}))
	fieldSummarySz  = int64(unsafe.Sizeof(iceberg.FieldSummary{}))
)

func manifestListSize(key string, list []iceberg.ManifestFile) int64 {
	n := int64(itemOverhead + len(key))
	for i := range list {
		m := &list[i]
		n += manifestFileSz + int64(len(m.Path)+len(m.KeyMetadata))
		for _, s := range m.Partitions {
			n += fieldSummarySz + int64(len(s.LowerBound)+len(s.UpperBound))
			if s.ContainsNaN != nil {
				n += pointerTarget
			}
		}
		if m.FirstRowID != nil {
			n += pointerTarget
		}
	}
	return n
}

func entriesSize(key string, entries []iceberg.ManifestEntry) int64 {
	n := int64(itemOverhead + len(key))
	for i := range entries {
		n += entrySize(&entries[i])
	}
	return n
}

func entrySize(e *iceberg.ManifestEntry) int64 {
	n := manifestEntrySz
	for _, p := range []*int64{e.SnapshotID, e.SequenceNumber, e.FileSequenceNumber} {
		if p != nil {
			n += pointerTarget
		}
	}
	f := &e.DataFile
	n += int64(len(f.FilePath) + len(f.FileFormat) + len(f.KeyMetadata))
	for _, v := range f.Partition {
		n += ifaceSize + boxedValueSize
		switch x := v.(type) {
		case string:
			n += int64(len(x))
		case []byte:
			n += int64(len(x))
		}
	}
	for _, m := range []map[int]int64{f.ColumnSizes, f.ValueCounts, f.NullValueCounts, f.NaNValueCounts} {
		n += int64(len(m)) * mapEntryCounts
	}
	for _, m := range []map[int][]byte{f.LowerBounds, f.UpperBounds} {
		n += int64(len(m)) * mapEntryBytes
		for _, b := range m {
			n += int64(len(b))
		}
	}
	n += int64(len(f.SplitOffsets)+len(f.EqualityIDs)) * 8
	for _, p := range []*int64{f.FirstRowID, f.ContentOffset, f.ContentSizeInBytes} {
		if p != nil {
			n += pointerTarget
		}
	}
	if f.SortOrderID != nil {
		n += pointerTarget
	}
	if f.ReferencedDataFile != nil {
		n += 16 + int64(len(*f.ReferencedDataFile))
	}
	return n
}
