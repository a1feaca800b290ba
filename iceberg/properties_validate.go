package iceberg

import (
	"fmt"
	"strconv"
	"strings"
)

// PropertyError reports a table property value the engine cannot use.
// Properties read as numbers or booleans would otherwise fall back to
// their defaults without a word, so they are checked when set.
type PropertyError struct {
	Key, Value string
	Want       string // what the value must be, e.g. "an integer >= 0"
}

func (e *PropertyError) Error() string {
	return fmt.Sprintf("%v: table property %q = %q: want %s", ErrInvalidMetadata, e.Key, e.Value, e.Want)
}

// Unwrap makes errors.Is(err, ErrInvalidMetadata) true.
func (e *PropertyError) Unwrap() error { return ErrInvalidMetadata }

// minIntProperties are the integer properties with their least valid value.
var minIntProperties = map[string]int64{
	PropCommitNumRetries:            0,
	PropCommitMinRetryWaitMs:        0,
	PropCommitMaxRetryWaitMs:        0,
	PropCommitTotalRetryTimeMs:      0,
	PropManifestMinMergeCount:       0,
	PropManifestTargetSizeBytes:     1,
	PropWriteTargetFileSizeBytes:    1,
	PropMetadataPreviousVersionsMax: 0,
	PropMaxSnapshotAgeMs:            0,
	PropMinSnapshotsToKeep:          0,
	PropMaxRefAgeMs:                 0,
	// Read by the Parquet writer (iceberg/parquetfile).
	"write.parquet.page-row-limit":       1,
	"write.parquet.dict-size-bytes":      1,
	"write.parquet.page-size-bytes":      1,
	"write.parquet.row-group-size-bytes": 1,
	// -1 lifts the cap; 0 is refused below.
	PropRowGroupRowLimit: -1,
}

// PropRowGroupRowLimit caps the rows of a Parquet row group icesql
// writes (icesql's own property: Java's writer has no row cap).
const PropRowGroupRowLimit = "icesql.write.parquet.row-group-row-limit"

var boolProperties = map[string]bool{
	PropManifestMergeEnabled:             true,
	PropMetadataDeleteAfterCommitEnabled: true,
	PropGCEnabled:                        true,
	PropWriteWAPEnabled:                  true,
	PropExpireOnCommitEnabled:            true,
}

// ValidateProperty checks the value of a table property the engine reads
// as a number, a boolean or a metadata codec; other properties are accepted as they are
// (their readers report bad values when they use them).
func ValidateProperty(key, value string) error {
	if least, ok := minIntProperties[key]; ok {
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < least {
			return &PropertyError{Key: key, Value: value, Want: fmt.Sprintf("an integer >= %d", least)}
		}
	}
	if n, err := strconv.ParseInt(value, 10, 64); key == PropRowGroupRowLimit && err == nil && n == 0 {
		return &PropertyError{Key: key, Value: value, Want: "a positive integer, or -1 for no limit"}
	}
	if boolProperties[key] && !strings.EqualFold(value, "true") && !strings.EqualFold(value, "false") {
		return &PropertyError{Key: key, Value: value, Want: "true or false"}
	}
	// Java's TableMetadataParser.Codec takes these two names, in any case.
	if key == PropMetadataCompression && !strings.EqualFold(value, "none") && !strings.EqualFold(value, "gzip") {
		return &PropertyError{Key: key, Value: value, Want: "none or gzip"}
	}
	return nil
}
