package sqlexec

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCreateChangelogView measures a changelog of 20 commits over a
// 10,000-row table: appends, merge-on-read deletes and copy-on-write
// updates (carry-over removal included), materialized each time.
func BenchmarkCreateChangelogView(b *testing.B) {
	ctx := context.Background()
	e, err := Open(ctx, Config{Warehouse: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession()
	exec := func(q string) {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			b.Fatal(err)
		}
	}
	exec("CREATE TABLE t (id BIGINT, v STRING) TBLPROPERTIES ('write.delete.mode'='merge-on-read')")
	for c := 0; c < 10; c++ {
		var vals []string
		for i := 0; i < 1000; i++ {
			vals = append(vals, fmt.Sprintf("(%d, 'v%d')", c*1000+i, i))
		}
		exec("INSERT INTO t VALUES " + strings.Join(vals, ", "))
	}
	for c := 0; c < 5; c++ {
		exec(fmt.Sprintf("DELETE FROM t WHERE id %% 97 = %d", c))
		exec(fmt.Sprintf("UPDATE t SET v = 'u' WHERE id %% 89 = %d", c))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		exec("CALL system.create_changelog_view(table => 't')")
	}
}
