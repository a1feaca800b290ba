package maintenance

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg/table"
)

// PublishChanges publishes the snapshot a write-audit-publish write staged
// under wapID (its summary's wap.id) by cherry-picking it onto main, as
// Spark's publish_changes procedure does. With several snapshots staged
// under one id, the oldest is published, as Java picks the first.
func PublishChanges(ctx context.Context, tbl *table.Table, wapID string) (CherrypickResult, error) {
	for _, s := range tbl.Metadata().Snapshots() {
		if s.Summary[summaryWAPID] == wapID {
			return CherrypickSnapshot(ctx, tbl, s.SnapshotID)
		}
	}
	return CherrypickResult{}, fmt.Errorf("%w: %q in %s", ErrUnknownWAPID, wapID, tbl.Ident())
}
