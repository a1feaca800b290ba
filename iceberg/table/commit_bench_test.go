package table

import (
	"context"
	"testing"

	"github.com/icesql/icesql/iceberg/fileio"
)

// BenchmarkAppendCommit measures one single-file append commit end to end
// (manifest, manifest list, metadata.json, swap) on local disk, with and
// without fsync.
func BenchmarkAppendCommit(b *testing.B) {
	for _, sync := range []bool{true, false} {
		name := "fsync"
		if !sync {
			name = "nosync"
		}
		b.Run(name, func(b *testing.B) {
			f := newFixture(b)
			f.env.IO = &fileio.Local{NoSync: !sync}
			tbl := f.createEvents(b, nil)
			ctx := context.Background()
			df := f.dayFile(b, tbl, 0, 1)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if tbl, err = tbl.NewAppend().AddDataFile(df).Commit(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
