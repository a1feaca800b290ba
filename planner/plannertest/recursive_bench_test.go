package plannertest

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/exec"
)

// loadTree adds table tree(id, parent BIGINT) of n nodes where node i's
// parent is (i-1)/fanout (node 0 is the root, parent NULL).
func loadTree(db *DB, n, fanout int) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "parent", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	t := NewTable("tree", schema)
	ib, pb := array.NewInt64Builder(db.Mem), array.NewInt64Builder(db.Mem)
	for i := 0; i < n; i++ {
		ib.Append(int64(i))
		if i == 0 {
			pb.AppendNull()
		} else {
			pb.Append(int64((i - 1) / fanout))
		}
	}
	cols := []arrow.Array{ib.NewArray(), pb.NewArray()}
	b := array.NewRecordBatch(schema, cols, int64(n))
	t.Append(b)
	b.Release()
	exec.ReleaseArrays(cols)
	ib.Release()
	pb.Release()
	db.Cat.Add(t)
}

func benchQuery(b *testing.B, db *DB, q string, wantRows int64) {
	b.Helper()
	ctx := context.Background()
	for b.Loop() {
		_, bs, err := db.QueryBatches(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		for _, rb := range bs {
			n += rb.NumRows()
		}
		exec.ReleaseAll(bs)
		if n != wantRows {
			b.Fatalf("%d rows, want %d", n, wantRows)
		}
	}
}

// BenchmarkRecursiveCount is the per-iteration cost: 10000 iterations of
// one row each.
func BenchmarkRecursiveCount(b *testing.B) {
	db := NewDB(memory.NewGoAllocator())
	defer db.Cat.Close()
	benchQuery(b, db, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 10000) SELECT n FROM c", 10000)
}

// BenchmarkRecursiveTreeWalk walks a 100k-node tree (fanout 10) level by
// level, with UNION ALL and with UNION (which hashes every row), the
// working table written on either side of the join.
func BenchmarkRecursiveTreeWalk(b *testing.B) {
	const n = 100_000
	db := NewDB(memory.NewGoAllocator())
	defer db.Cat.Close()
	loadTree(db, n, 10)
	for _, op := range []string{"UNION ALL", "UNION"} {
		for _, from := range []string{"sub s JOIN tree t", "tree t JOIN sub s"} {
			b.Run(op+"/"+from, func(b *testing.B) {
				benchQuery(b, db, "WITH RECURSIVE sub(id, depth) AS (SELECT id, 0 FROM tree WHERE parent IS NULL "+op+
					" SELECT t.id, s.depth + 1 FROM "+from+" ON t.parent = s.id) SELECT id, depth FROM sub", n)
			})
		}
	}
}
