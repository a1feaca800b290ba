package catalog

import (
	"strings"
	"testing"
)

func TestRedactURI(t *testing.T) {
	cases := []struct{ in, want string }{
		{"postgres://u:hunter2@h:5432/db?sslmode=disable", "postgres://u:xxxxx@h:5432/db?sslmode=disable"},
		{"postgres://u@h/db", "postgres://u@h/db"},
		{"postgres://h/db?password=hunter2&x=1", "postgres://h/db?password=xxxxx&x=1"},
		{"/data/catalog.db", "/data/catalog.db"},
		{"https://h/v1?token=hunter2", "https://h/v1?token=xxxxx"},
		{"postgres://u:hun%zzter2@h/db", "postgres://xxxxx@h/db"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got := RedactURI(c.in)
			if got != c.want {
				t.Fatalf("got %q want %q", got, c.want)
			}
			if strings.Contains(got, "hunter2") || strings.Contains(got, "hun%zz") {
				t.Fatalf("secret left in %q", got)
			}
		})
	}
}
