package iceberg

// Operation is a snapshot's summary["operation"].
type Operation string

const (
	OpAppend    Operation = "append"
	OpReplace   Operation = "replace"
	OpOverwrite Operation = "overwrite"
	OpDelete    Operation = "delete"
)

// SummaryOperation is the summary key holding the operation.
const SummaryOperation = "operation"

// Snapshot is one entry of the metadata's "snapshots" list. Snapshots read
// from or held by TableMetadata are shared: do not modify them.
type Snapshot struct {
	SnapshotID       int64
	ParentSnapshotID *int64
	// SequenceNumber is 0 for v1 snapshots.
	SequenceNumber int64
	TimestampMs    int64
	// ManifestList is the Avro manifest list location (required from v2).
	ManifestList string
	// Manifests is the legacy v1 inline manifest list; empty otherwise.
	Manifests []string
	// Summary holds "operation" plus string metrics (all values strings).
	Summary  map[string]string
	SchemaID *int
	// FirstRowID and AddedRows are v3 row-lineage fields.
	FirstRowID *int64
	AddedRows  *int64
	KeyID      *string
}

// Operation returns summary["operation"].
func (s *Snapshot) Operation() Operation { return Operation(s.Summary[SummaryOperation]) }

// SnapshotLogEntry is one entry of "snapshot-log": when main changed to
// which snapshot.
type SnapshotLogEntry struct {
	TimestampMs int64 `json:"timestamp-ms"`
	SnapshotID  int64 `json:"snapshot-id"`
}

// MetadataLogEntry is one entry of "metadata-log": a previous metadata file.
type MetadataLogEntry struct {
	TimestampMs  int64  `json:"timestamp-ms"`
	MetadataFile string `json:"metadata-file"`
}

// BlobMetadata describes one blob of a Puffin statistics file.
type BlobMetadata struct {
	Type           string            `json:"type"`
	SnapshotID     int64             `json:"snapshot-id"`
	SequenceNumber int64             `json:"sequence-number"`
	Fields         []int             `json:"fields"`
	Properties     map[string]string `json:"properties,omitempty"`
}

// StatisticsFile is an entry of "statistics" (a Puffin file).
type StatisticsFile struct {
	SnapshotID            int64          `json:"snapshot-id"`
	StatisticsPath        string         `json:"statistics-path"`
	FileSizeInBytes       int64          `json:"file-size-in-bytes"`
	FileFooterSizeInBytes int64          `json:"file-footer-size-in-bytes"`
	KeyMetadata           *string        `json:"key-metadata,omitempty"`
	BlobMetadata          []BlobMetadata `json:"blob-metadata"`
}

// PartitionStatisticsFile is an entry of "partition-statistics".
type PartitionStatisticsFile struct {
	SnapshotID      int64  `json:"snapshot-id"`
	StatisticsPath  string `json:"statistics-path"`
	FileSizeInBytes int64  `json:"file-size-in-bytes"`
}
