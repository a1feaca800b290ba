package load

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{"id,name\n1,a\n", "1,a,1.5,2024-01-02,,t\n", "\"x\n", ",,,,,\n", "'a\\'b',NA\r\n", "\"\"\"\n"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, content string, header bool) {
		p := filepath.Join(t.TempDir(), "x.csv")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		readAll(t, p, Options{Format: "csv", Header: header})
		readAll(t, p, Options{Format: "csv", Header: header, Quote: '\'', Escape: '\\', Null: "NA"})
	})
}

func FuzzReadJSONL(f *testing.F) {
	for _, s := range []string{`{"id":1,"name":"a"}`, `{"amount":"1.5","day":"2024-01-02"}`, `[]`, `{"ok":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		p := filepath.Join(t.TempDir(), "x.jsonl")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		readAll(t, p, Options{Format: "jsonl"})
	})
}

func FuzzParseCopy(f *testing.F) {
	for _, s := range []string{"t FROM 'a.csv'", "t FROM 'x' WITH (FORMAT csv, HEADER false)", "`a`.b FROM ''", `t FROM 'a.csv' WITH (NULL 'x', QUOTE '''', ESCAPE '\')`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseCopy(s)
	})
}
