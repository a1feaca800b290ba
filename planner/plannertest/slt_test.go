package plannertest

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/sqlexec/slt"
)

func TestSelectFiles(t *testing.T) {
	files, err := filepath.Glob("../../testdata/sql/select/*.test")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			db := NewDB(mem)
			fails, err := slt.RunFile(db, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, fl := range fails {
				t.Error(fl)
			}
			db.Cat.Close()
			mem.AssertSize(t, 0)
		})
	}
}
