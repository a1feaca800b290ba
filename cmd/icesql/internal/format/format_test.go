package format

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

type stringer struct{ s string }

func (s stringer) String() string { return s.s }

var results = map[string]*Result{
	"mixed": {
		Columns: []string{"id", "name", "score", "ok", "at"},
		Rows: [][]any{
			{int64(1), "alice", 3.5, true, time.Date(2024, 1, 2, 3, 4, 5, 6000, time.UTC)},
			{int64(22), "bob, jr.", nil, false, nil},
			{int64(-3), "tab\there|pipe \"q\"\nnext", math.Inf(1), nil, stringer{"2024-01-02"}},
			{int64(4), "ünïcode", float32(0.25), true, []byte{0xde, 0xad}},
		},
	},
	"empty":  {Columns: []string{"a", "b"}},
	"single": {Columns: []string{"x"}, Rows: [][]any{{nil}}},
}

func TestGolden(t *testing.T) {
	for name, r := range results {
		for _, f := range Names() {
			t.Run(name+"."+f, func(t *testing.T) {
				var buf bytes.Buffer
				if err := Write(&buf, Format(f), r); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("..", "..", "testdata", "format", name+"."+f+".golden")
				if *update {
					if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("output differs from %s:\n%s\nwant:\n%s", path, buf.Bytes(), want)
				}
			})
		}
	}
}

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Format
		ok   bool
	}{
		{"aligned", Aligned, true}, {"CSV", CSV, true}, {" json ", JSON, true},
		{"expanded", Expanded, true}, {"html", "", false}, {"", "", false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.ok != (err == nil) || got != tt.want {
				t.Fatalf("Parse(%q) = %q, %v", tt.in, got, err)
			}
			var ue *UnknownFormatError
			if !tt.ok && (!errors.Is(err, ErrUnknownFormat) || !errors.As(err, &ue)) {
				t.Fatalf("error %v is not an UnknownFormatError", err)
			}
		})
	}
}

func TestWriteShapeError(t *testing.T) {
	err := Write(&bytes.Buffer{}, Aligned, &Result{Columns: []string{"a"}, Rows: [][]any{{1, 2}}})
	if !errors.Is(err, ErrShape) {
		t.Fatalf("got %v, want ErrShape", err)
	}
}

func TestFormatTime(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), "2024-01-02 03:04:05"},
		{time.Date(2024, 1, 2, 3, 4, 5, 6000, time.UTC), "2024-01-02 03:04:05.000006"},
		{time.Date(2026, 1, 1, 0, 0, 0, 123456789, time.UTC), "2026-01-01 00:00:00.123456789"},
		{time.Date(2026, 1, 1, 0, 0, 0, 5, time.FixedZone("", 3600)), "2026-01-01 00:00:00.000000005+01:00"},
	} {
		if got := formatTime(tc.t); got != tc.want {
			t.Errorf("formatTime(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
