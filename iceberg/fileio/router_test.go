package fileio

import "testing"

func TestRouterMount(t *testing.T) {
	def, s3, tbl, inner := &Local{}, &Local{NoSync: true}, &Local{}, &Local{}
	r := &Router{Default: def, Schemes: map[string]FileIO{"s3": s3}}
	r.Mount("s3://b/wh/ns/t", tbl)
	r.Mount("s3://b/wh/ns/t/data/deep/", inner)
	cases := []struct {
		loc  string
		want FileIO
	}{
		{"s3://b/wh/ns/t/metadata/v1.json", tbl},
		{"s3://b/wh/ns/t", tbl},
		{"s3://b/wh/ns/t/data/deep/f.parquet", inner},
		{"s3://b/wh/ns/t2/metadata/v1.json", s3}, // a sibling with a longer name
		{"s3://b/wh/ns/u/f", s3},
		{"/local/file", def},
	}
	for _, c := range cases {
		if got := r.For(c.loc); got != c.want {
			t.Errorf("For(%q) = %p, want %p", c.loc, got, c.want)
		}
	}
	again := &Local{}
	r.Mount("s3://b/wh/ns/t/", again)
	if got := r.For("s3://b/wh/ns/t/x"); got != again {
		t.Errorf("mounting a prefix again does not replace it")
	}
}
