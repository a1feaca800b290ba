package shell

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestPagingWriter(t *testing.T) {
	tall := strings.Repeat("line\n", 10)
	tests := []struct {
		name, pager, text, want string
	}{
		{"short goes straight out", "sed s/^/P:/", "a\nb\n", "a\nb\n"},
		{"tall goes through the pager", "sed s/^/P:/", tall, strings.Repeat("P:line\n", 10)},
		{"pager that cannot start", "exit 0; never", tall, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			pw := &pagingWriter{out: &out, pager: tt.pager, height: 5}
			// Written in pieces, as rows arrive.
			for _, l := range strings.SplitAfter(tt.text, "\n") {
				pw.Write([]byte(l))
			}
			if err := finishOutput(pw, nil); err != nil {
				t.Fatal(err)
			}
			if tt.want != "" && out.String() != tt.want {
				t.Fatalf("output %q, want %q", out.String(), tt.want)
			}
		})
	}
}

// TestPagerQuitEarly: a pager that exits before the result ends stops
// the printing without an error.
func TestPagerQuitEarly(t *testing.T) {
	s, out := newTestShell(t)
	makeDigits(t, s)
	s.Terminal, s.Pager = true, "head -n 1"
	s.Height = func() int { return 3 }
	err := s.stream(context.Background(), "SELECT a.d AS n, b.d AS m FROM digits a, digits b", nil)
	if err != nil {
		t.Fatalf("stream through a pager that quit: %v", err)
	}
	if !strings.HasPrefix(out.String(), " n | m\n") || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("output %q, want the pager's one line", out.String())
	}
}

func TestStreamLongResult(t *testing.T) {
	s, out := newTestShell(t)
	makeDigits(t, s)
	out.Reset()
	if err := s.stream(context.Background(), "SELECT a.d * 10 + b.d AS n FROM digits a, digits b ORDER BY n", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "(100 rows)\n") {
		t.Fatalf("output ends %q", out.String()[max(0, out.Len()-40):])
	}
}

// makeDigits creates table digits with d = 0..9.
func makeDigits(t *testing.T, s *Shell) {
	t.Helper()
	if err := s.RunScript(context.Background(), "CREATE TABLE digits (d BIGINT); INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9);", "setup"); err != nil {
		t.Fatal(err)
	}
}
