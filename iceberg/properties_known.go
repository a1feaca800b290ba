package iceberg

import "strings"

// KnownTableProperties are the table property names of Java's
// TableProperties (the ones icesql honours and the ones it keeps for
// other engines), so that a near miss of one can be told from a name
// some engine uses on purpose.
var KnownTableProperties = []string{
	PropCommitNumRetries, PropCommitMinRetryWaitMs, PropCommitMaxRetryWaitMs, PropCommitTotalRetryTimeMs,
	PropManifestMergeEnabled, PropManifestMinMergeCount, PropManifestTargetSizeBytes,
	PropWriteTargetFileSizeBytes, PropParquetCompression,
	PropMetadataPreviousVersionsMax, PropMetadataDeleteAfterCommitEnabled, PropMetadataCompression,
	PropDefaultMetricsMode, PropDeleteMode, PropUpdateMode, PropMergeMode,
	PropDeleteIsolationLevel, PropUpdateIsolationLevel, PropMergeIsolationLevel,
	PropMaxSnapshotAgeMs, PropMinSnapshotsToKeep, PropMaxRefAgeMs, PropExpireOnCommitEnabled,
	PropDefaultNameMapping, PropGCEnabled, PropWriteWAPEnabled,
	"write.parquet.row-group-size-bytes", "write.parquet.page-size-bytes", "write.parquet.page-row-limit",
	"write.parquet.dict-size-bytes", "write.parquet.compression-level", "write.parquet.bloom-filter-max-bytes",
	"write.parquet.row-group-check-min-record-count", "write.parquet.row-group-check-max-record-count",
	"write.format.default", "write.delete.format.default", "write.avro.compression-codec",
	"write.avro.compression-level", "write.orc.compression-codec", "write.orc.compression-strategy",
	"write.orc.stripe-size-bytes", "write.orc.block-size-bytes",
	"write.delete.parquet.compression-codec", "write.delete.parquet.row-group-size-bytes",
	"write.delete.target-file-size-bytes", "write.delete.granularity",
	"write.data.path", "write.folder-storage.path", "write.metadata.path", "write.object-storage.enabled",
	"write.object-storage.path", "write.object-storage.partitioned-paths", "write.location-provider.impl",
	"write.summary.partition-limit", "write.manifest-lists.enabled", "write.spark.fanout.enabled",
	"write.spark.accept-any-schema", "write.distribution-mode", "write.delete.distribution-mode",
	"write.update.distribution-mode", "write.merge.distribution-mode", "write.merge.cardinality-check.enabled",
	"write.upsert.enabled", "read.split.target-size", "read.split.metadata-target-size",
	"read.split.planning-lookback", "read.split.open-file-cost", "read.parquet.vectorization.enabled",
	"read.parquet.vectorization.batch-size", "read.orc.vectorization.enabled", "read.orc.vectorization.batch-size",
	"compatibility.snapshot-id-inheritance.enabled", "engine.hive.enabled", "commit.status-check.num-retries",
	"commit.status-check.min-wait-ms", "commit.status-check.max-wait-ms", "commit.status-check.total-timeout-ms",
	PropFormatVersion, "current-snapshot-id", "uuid", "comment",
}

// knownPropertyPrefixes start families of per-column or per-engine
// properties: any name under them is deliberate.
var knownPropertyPrefixes = []string{
	PropMetricsModeColumnPrefix, "write.parquet.bloom-filter-enabled.column.",
	"write.parquet.bloom-filter-fpp.column.", "write.parquet.bloom-filter-ndv.column.",
	"write.parquet.stats-enabled.column.", "write.orc.bloom.filter.", "spark.", "trino.", "flink.",
	"hive.", "engine.", "icesql.",
}

// IsKnownTableProperty reports whether key is a table property name of
// Java Iceberg or under one of its families.
func IsKnownTableProperty(key string) bool {
	for _, k := range KnownTableProperties {
		if k == key {
			return true
		}
	}
	for _, p := range knownPropertyPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}
