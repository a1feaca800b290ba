package iceberg

// Table property names the engine honours, with their defaults. Values are
// stored as strings in table metadata; the typed getters on TableMetadata
// (PropertyInt, PropertyBool) parse them.
const (
	// PropFormatVersion is reserved: it is read at create or upgrade time
	// and never stored in the properties map.
	PropFormatVersion         = "format-version"
	DefaultFormatVersion      = 2
	MaxSupportedFormatVersion = 3

	PropCommitNumRetries           = "commit.retry.num-retries"
	DefaultCommitNumRetries        = 4
	PropCommitMinRetryWaitMs       = "commit.retry.min-wait-ms"
	DefaultCommitMinRetryWaitMs    = 100
	PropCommitMaxRetryWaitMs       = "commit.retry.max-wait-ms"
	DefaultCommitMaxRetryWaitMs    = 60000
	PropCommitTotalRetryTimeMs     = "commit.retry.total-timeout-ms"
	DefaultCommitTotalRetryTimeMs  = 1800000
	PropManifestMergeEnabled       = "commit.manifest-merge.enabled"
	DefaultManifestMergeEnabled    = true
	PropManifestMinMergeCount      = "commit.manifest.min-count-to-merge"
	DefaultManifestMinMergeCount   = 100
	PropManifestTargetSizeBytes    = "commit.manifest.target-size-bytes"
	DefaultManifestTargetSizeBytes = 8388608

	PropWriteTargetFileSizeBytes    = "write.target-file-size-bytes"
	DefaultWriteTargetFileSizeBytes = 536870912
	PropParquetCompression          = "write.parquet.compression-codec"
	// DefaultParquetCompression is what Java (1.4+) stores on new tables.
	DefaultParquetCompression = "zstd"

	PropMetadataPreviousVersionsMax         = "write.metadata.previous-versions-max"
	DefaultMetadataPreviousVersionsMax      = 100
	PropMetadataDeleteAfterCommitEnabled    = "write.metadata.delete-after-commit.enabled"
	DefaultMetadataDeleteAfterCommitEnabled = false
	PropMetadataCompression                 = "write.metadata.compression-codec"
	DefaultMetadataCompression              = "none"
	PropDefaultMetricsMode                  = "write.metadata.metrics.default"
	DefaultMetricsMode                      = "truncate(16)"
	PropMetricsModeColumnPrefix             = "write.metadata.metrics.column."

	PropDeleteMode           = "write.delete.mode"
	PropUpdateMode           = "write.update.mode"
	PropMergeMode            = "write.merge.mode"
	ModeCopyOnWrite          = "copy-on-write"
	ModeMergeOnRead          = "merge-on-read"
	DefaultWriteMode         = ModeCopyOnWrite
	PropDeleteIsolationLevel = "write.delete.isolation-level"
	PropUpdateIsolationLevel = "write.update.isolation-level"
	PropMergeIsolationLevel  = "write.merge.isolation-level"
	IsolationSerializable    = "serializable"
	IsolationSnapshot        = "snapshot"
	DefaultIsolationLevel    = IsolationSerializable

	PropMaxSnapshotAgeMs      = "history.expire.max-snapshot-age-ms"
	DefaultMaxSnapshotAgeMs   = 432000000
	PropMinSnapshotsToKeep    = "history.expire.min-snapshots-to-keep"
	DefaultMinSnapshotsToKeep = 1
	PropMaxRefAgeMs           = "history.expire.max-ref-age-ms"
	// PropExpireOnCommitEnabled (icesql's, off by default) makes writers
	// expire snapshots by the history.expire.* policy once enough of them
	// are past it, so metadata.json and commit cost stay bounded.
	PropExpireOnCommitEnabled    = "history.expire.on-commit.enabled"
	DefaultExpireOnCommitEnabled = false
	DefaultMaxRefAgeMs           = int64(^uint64(0) >> 1)
	PropDefaultNameMapping       = "schema.name-mapping.default"
	PropGCEnabled                = "gc.enabled"
	DefaultGCEnabled             = true
	// PropWriteWAPEnabled turns on write-audit-publish: with a session's
	// spark.wap.id set, writes stage their snapshot instead of moving main.
	PropWriteWAPEnabled    = "write.wap.enabled"
	DefaultWriteWAPEnabled = false
)

// reservedProperties are table-level facts Java refuses to store in the
// properties map (they are derived from the metadata itself).
var reservedProperties = map[string]bool{
	PropFormatVersion:               true,
	"uuid":                          true,
	"snapshot-count":                true,
	"current-snapshot-id":           true,
	"current-snapshot-summary":      true,
	"current-snapshot-timestamp-ms": true,
	"current-schema":                true,
	"default-partition-spec":        true,
	"default-sort-order":            true,
}

// IsReservedProperty reports whether key may not be stored as a table
// property.
func IsReservedProperty(key string) bool { return reservedProperties[key] }
