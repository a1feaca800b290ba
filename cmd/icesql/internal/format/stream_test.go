package format

import (
	"bytes"
	"strings"
	"testing"
)

// TestAlignedWindow: rows after the first AlignWindow keep the widths
// the window chose; a wider value overflows its column.
func TestAlignedWindow(t *testing.T) {
	var buf bytes.Buffer
	rw, err := NewRowWriter(&buf, Aligned, []string{"n", "s"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range AlignWindow {
		if err := rw.WriteRow([]any{int64(i % 10), "ab"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rw.WriteRow([]any{int64(12345), "abcdef"}); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if lines[0] != " n | s" || lines[1] != "---+----" {
		t.Fatalf("header %q %q", lines[0], lines[1])
	}
	if got := lines[len(lines)-2]; got != " 12345 | abcdef" {
		t.Errorf("row after the window = %q", got)
	}
	if got := lines[len(lines)-1]; got != "(1001 rows)" {
		t.Errorf("footer = %q", got)
	}
}

// TestRowsStream: every format but aligned shows a row once flushed,
// before the result ends; aligned holds rows back until the window
// fills or the result ends.
func TestRowsStream(t *testing.T) {
	for _, f := range Names() {
		t.Run(f, func(t *testing.T) {
			var buf bytes.Buffer
			rw, err := NewRowWriter(&buf, Format(f), []string{"word"})
			if err != nil {
				t.Fatal(err)
			}
			if err := rw.WriteRow([]any{"firstrow"}); err != nil {
				t.Fatal(err)
			}
			if err := rw.Flush(); err != nil {
				t.Fatal(err)
			}
			shown := strings.Contains(buf.String(), "firstrow")
			if want := Format(f) != Aligned; shown != want {
				t.Errorf("row shown before Close = %v, want %v: %q", shown, want, buf.String())
			}
			if err := rw.Close(); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "firstrow") {
				t.Errorf("row missing after Close: %q", buf.String())
			}
		})
	}
}
