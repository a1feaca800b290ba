package iceberg

import (
	"context"
	"log/slog"
	"time"
)

// CommitReport describes one successful or failed commit of one table.
type CommitReport struct {
	Table          string // namespace.table
	SnapshotID     int64
	SequenceNumber int64
	Operation      string // append, overwrite, delete, replace
	Attempts       int    // 1 when the first compare-and-swap won
	Duration       time.Duration

	AddedDataFiles     int
	RemovedDataFiles   int
	AddedDeleteFiles   int
	RemovedDeleteFiles int
	AddedRecords       int64
	RemovedRecords     int64
	AddedFilesSize     int64

	// MetadataLocation is the metadata.json the commit installed.
	MetadataLocation string
	// Err is nil for a commit that landed.
	Err error
}

// MetricsReporter receives a report for every commit. Implementations must
// be safe for concurrent use and must not block for long: reports are
// delivered synchronously, after the commit's outcome is known.
type MetricsReporter interface {
	ReportCommit(ctx context.Context, r CommitReport)
}

// MetricsReporterFunc adapts a function to MetricsReporter.
type MetricsReporterFunc func(ctx context.Context, r CommitReport)

func (f MetricsReporterFunc) ReportCommit(ctx context.Context, r CommitReport) { f(ctx, r) }

// LogCommit logs a report through log/slog at debug level; every commit
// path calls it, whether or not a MetricsReporter is set.
func LogCommit(ctx context.Context, r CommitReport) {
	if !slog.Default().Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("table", r.Table),
		slog.Int64("snapshot_id", r.SnapshotID),
		slog.Int64("sequence_number", r.SequenceNumber),
		slog.String("operation", r.Operation),
		slog.Int("attempts", r.Attempts),
		slog.Duration("duration", r.Duration),
		slog.Int("added_data_files", r.AddedDataFiles),
		slog.Int("removed_data_files", r.RemovedDataFiles),
		slog.Int64("added_records", r.AddedRecords),
		slog.Int64("removed_records", r.RemovedRecords),
	}
	if r.Err != nil {
		attrs = append(attrs, slog.String("error", r.Err.Error()))
	}
	slog.LogAttrs(ctx, slog.LevelDebug, "iceberg commit", attrs...)
}
