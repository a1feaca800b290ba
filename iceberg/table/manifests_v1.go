package table

import (
	"context"
	"io"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	"github.com/icesql/icesql/iceberg/scan"
)

// inlineManifestsOf builds the manifest list of a format v1 snapshot that
// names its manifests inline; see scan.InlineManifests. A commit on top
// of such a snapshot writes these into its manifest list, as Java does.
func inlineManifestsOf(ctx context.Context, fio fileio.FileIO, s *iceberg.Snapshot) ([]iceberg.ManifestFile, error) {
	return scan.InlineManifests(ctx, func(path string) (io.ReadCloser, error) { return fio.Open(ctx, path) }, s)
}
