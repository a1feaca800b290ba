package shell

import "testing"

func TestReverseSearch(t *testing.T) {
	h := &History{}
	for _, e := range []string{"SELECT 41 AS answer;", "SELECT 1;", "SELECT 42 AS answer;", "SHOW TABLES;"} {
		h.Add(e)
	}
	type step struct {
		key  rune
		want string // the line shown after the key
	}
	tests := []struct {
		name     string
		steps    []step
		entered  string // the line given to accept at the end
		accepted string
	}{
		{"newest match first", []step{{ctrlR, "(reverse-i-search)`': "}, {'a', "(reverse-i-search)`a': SELECT 42 AS answer;"}},
			"(reverse-i-search)`a': SELECT 42 AS answer;", "SELECT 42 AS answer;"},
		{"Ctrl-R again goes older", []step{{ctrlR, "(reverse-i-search)`': "}, {'a', "(reverse-i-search)`a': SELECT 42 AS answer;"},
			{'n', "(reverse-i-search)`an': SELECT 42 AS answer;"}, {ctrlR, "(reverse-i-search)`an': SELECT 41 AS answer;"}},
			"(reverse-i-search)`an': SELECT 41 AS answer;", "SELECT 41 AS answer;"},
		{"no match keeps the last and says so", []step{{ctrlR, "(reverse-i-search)`': "}, {'1', "(reverse-i-search)`1': SELECT 1;"},
			{'x', "(failed reverse-i-search)`1x': SELECT 1;"}},
			"(failed reverse-i-search)`1x': SELECT 1;", "SELECT 1;"},
		{"Tab ends the search on the match", []step{{ctrlR, "(reverse-i-search)`': "}, {'S', "(reverse-i-search)`S': SHOW TABLES;"}, {'\t', "SHOW TABLES;"}},
			"SHOW TABLES;", "SHOW TABLES;"},
		{"an edit by the terminal ends the search", []step{{ctrlR, "(reverse-i-search)`': "}, {'S', "(reverse-i-search)`S': SHOW TABLES;"}},
			"(reverse-i-search)`S': SHOW TABLES", "SHOW TABLES"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &reverseSearch{history: h, idx: -1}
			line := ""
			for _, s := range tt.steps {
				l, pos, ok := r.key(line, s.key)
				if !ok || l != s.want || pos != len(l) {
					t.Fatalf("key %q on %q = %q %d %v, want %q", s.key, line, l, pos, ok, s.want)
				}
				line = l
			}
			if got := r.accept(tt.entered); got != tt.accepted {
				t.Fatalf("accept(%q) = %q, want %q", tt.entered, got, tt.accepted)
			}
			// The shell asks again after the terminal's history did.
			if got := r.accept(tt.entered); got != tt.accepted {
				t.Fatalf("second accept(%q) = %q, want %q", tt.entered, got, tt.accepted)
			}
			if _, _, ok := r.key("x", 'y'); ok {
				t.Fatal("a key after the search was consumed")
			}
		})
	}
}
