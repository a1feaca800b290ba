package parser

import "testing"

func BenchmarkParseSelect(b *testing.B) {
	for b.Loop() {
		if _, err := Parse("select a, b from db.t.branch_x version as of 12 where a > 1 order by b"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseMerge(b *testing.B) {
	q := "merge into db.t t using (select * from s) s on t.id = s.id when matched then update set v = s.v when not matched then insert *"
	for b.Loop() {
		if _, err := Parse(q); err != nil {
			b.Fatal(err)
		}
	}
}
