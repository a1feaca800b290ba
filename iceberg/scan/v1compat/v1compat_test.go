package v1compat

import (
	"fmt"
	"slices"
	"testing"

	"github.com/icesql/icesql/internal/sqltest"
)

const selectAll = "SELECT id, s, v FROM %s ORDER BY id"

func TestReadInlineManifests(t *testing.T) {
	f := newV1Fixture(t)
	f.registerInline(t, "v1t")
	tests := []struct {
		name  string
		query string
		want  []string
	}{
		{"current snapshot", fmt.Sprintf(selectAll, "v1t"), batches[1]},
		{"time travel to the first append", fmt.Sprintf(selectAll, fmt.Sprintf("v1t VERSION AS OF %d", snapAppend1)), batches[0]},
		{"time travel to the second append", fmt.Sprintf(selectAll, fmt.Sprintf("v1t VERSION AS OF %d", snapAppend2)),
			append(slices.Clone(batches[0]), batches[1]...)},
		{"partition filter", "SELECT id FROM v1t WHERE s = 'z'", []string{"4"}},
		{"manifests table", "SELECT path, added_snapshot_id, added_data_files_count, deleted_data_files_count FROM v1t.manifests ORDER BY path",
			[]string{
				fmt.Sprintf("%s|%d|%d|0", f.manifestPath("v1t", "m2"), snapOverwrite, len(f.adds[1])),
				fmt.Sprintf("%s|%d|0|%d", f.manifestPath("v1t", "m3"), snapOverwrite, len(f.adds[0])),
			}},
		{"manifests table, every column", "SELECT count(*) FROM (SELECT * FROM default.v1t.manifests) m", []string{"2"}},
		{"all_manifests table", "SELECT reference_snapshot_id, count(*) FROM v1t.all_manifests GROUP BY reference_snapshot_id ORDER BY 1",
			[]string{fmt.Sprintf("%d|1", snapAppend1), fmt.Sprintf("%d|2", snapAppend2), fmt.Sprintf("%d|2", snapOverwrite)}},
		{"entries table", "SELECT status, count(*) FROM v1t.entries GROUP BY status ORDER BY status",
			[]string{fmt.Sprintf("1|%d", len(f.adds[1])), fmt.Sprintf("2|%d", len(f.adds[0]))}},
		{"files table", "SELECT count(*) FROM v1t.files", []string{fmt.Sprint(len(f.adds[1]))}},
		{"snapshots table has no manifest lists", "SELECT snapshot_id, manifest_list IS NULL FROM v1t.snapshots ORDER BY snapshot_id",
			[]string{fmt.Sprintf("%d|true", snapAppend1), fmt.Sprintf("%d|true", snapAppend2), fmt.Sprintf("%d|true", snapOverwrite)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sqltest.QueryStrings(t, f.db, tc.query)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s\n got  %v\n want %v", tc.query, got, tc.want)
			}
		})
	}
}
