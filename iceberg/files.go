package iceberg

// FileContent says what a data_file entry holds.
type FileContent int

const (
	ContentData            FileContent = 0
	ContentPositionDeletes FileContent = 1
	ContentEqualityDeletes FileContent = 2
)

func (c FileContent) String() string {
	switch c {
	case ContentData:
		return "DATA"
	case ContentPositionDeletes:
		return "POSITION_DELETES"
	case ContentEqualityDeletes:
		return "EQUALITY_DELETES"
	}
	return "UNKNOWN"
}

// FileFormat is the format of a data or delete file; written upper case as
// Java does, read case-insensitively.
type FileFormat string

const (
	FormatParquet FileFormat = "PARQUET"
	FormatAvro    FileFormat = "AVRO"
	FormatORC     FileFormat = "ORC"
	FormatPuffin  FileFormat = "PUFFIN"
)

// DataFile describes one data or delete file (the manifest's data_file
// struct, field ids 100+). Partition holds the partition tuple in the Go
// value form (values.go), one value per field of the spec SpecID.
type DataFile struct {
	Content            FileContent
	FilePath           string
	FileFormat         FileFormat
	SpecID             int
	Partition          []any
	RecordCount        int64
	FileSizeInBytes    int64
	ColumnSizes        map[int]int64
	ValueCounts        map[int]int64
	NullValueCounts    map[int]int64
	NaNValueCounts     map[int]int64
	LowerBounds        map[int][]byte // single-value serialisation
	UpperBounds        map[int][]byte
	KeyMetadata        []byte
	SplitOffsets       []int64
	EqualityIDs        []int
	SortOrderID        *int
	FirstRowID         *int64
	ReferencedDataFile *string
	ContentOffset      *int64
	ContentSizeInBytes *int64
}

// EntryStatus is a manifest entry's status.
type EntryStatus int

const (
	StatusExisting EntryStatus = 0
	StatusAdded    EntryStatus = 1
	StatusDeleted  EntryStatus = 2
)

func (s EntryStatus) String() string {
	switch s {
	case StatusExisting:
		return "EXISTING"
	case StatusAdded:
		return "ADDED"
	case StatusDeleted:
		return "DELETED"
	}
	return "UNKNOWN"
}

// ManifestEntry is one row of a manifest. SnapshotID, SequenceNumber and
// FileSequenceNumber are nil in a file when inherited from the manifest;
// readers fill them in from the manifest list (sequence number inheritance)
// so callers always see resolved values after reading.
type ManifestEntry struct {
	Status             EntryStatus
	SnapshotID         *int64
	SequenceNumber     *int64
	FileSequenceNumber *int64
	DataFile           DataFile
}

// ManifestContent says whether a manifest lists data or delete files.
type ManifestContent int

const (
	ManifestContentData    ManifestContent = 0
	ManifestContentDeletes ManifestContent = 1
)

// FieldSummary is a manifest list's per-partition-field summary.
type FieldSummary struct {
	ContainsNull bool
	ContainsNaN  *bool
	LowerBound   []byte
	UpperBound   []byte
}

// ManifestFile is one entry of a manifest list.
type ManifestFile struct {
	Path               string
	Length             int64
	SpecID             int
	Content            ManifestContent
	SequenceNumber     int64
	MinSequenceNumber  int64
	AddedSnapshotID    int64
	AddedFilesCount    int32
	ExistingFilesCount int32
	DeletedFilesCount  int32
	AddedRowsCount     int64
	ExistingRowsCount  int64
	DeletedRowsCount   int64
	Partitions         []FieldSummary
	KeyMetadata        []byte
	FirstRowID         *int64
}

// HasAddedFiles and friends mirror Java's ManifestFile helpers.
func (m ManifestFile) HasAddedFiles() bool    { return m.AddedFilesCount > 0 }
func (m ManifestFile) HasExistingFiles() bool { return m.ExistingFilesCount > 0 }
func (m ManifestFile) HasDeletedFiles() bool  { return m.DeletedFilesCount > 0 }
