package load

import (
	"errors"
	"strings"
	"testing"
)

func nestedColumns(t *testing.T) []Column {
	t.Helper()
	var cols []Column
	for _, c := range [][2]string{
		{"id", "bigint"}, {"tags", "array<string>"}, {"m", "map<string, int>"},
		{"s", "struct<a: int, d: date, l: array<bigint>>"},
	} {
		typ, err := ParseType(c[1])
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, Column{Name: c[0], Type: typ})
	}
	return cols
}

func TestReadNestedJSON(t *testing.T) {
	content := `{"id":1,"tags":["a",null],"m":{"k":1,"j":2},"s":{"a":5,"d":"2024-01-02","l":[1,2]}}
{"id":2,"tags":[],"m":null,"s":{"A":null}}
{"id":3}
`
	r, err := Open(writeFile(t, "n.jsonl", content), nestedColumns(t), Options{Format: "jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var got []string
	for r.Next() {
		rec := r.RecordBatch()
		for i := range int(rec.NumRows()) {
			var parts []string
			for c := range int(rec.NumCols()) {
				parts = append(parts, rec.Column(c).ValueStr(i))
			}
			got = append(got, strings.Join(parts, "|"))
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`1|["a",null]|[{"key":"j","value":2},{"key":"k","value":1}]|{"a":5,"d":"2024-01-02","l":[1,2]}`,
		`2|[]|(null)|{"a":null,"d":null,"l":null}`,
		`3|(null)|(null)|(null)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadNestedJSONErrors(t *testing.T) {
	tests := []struct {
		name, line, column, inMessage string
	}{
		{"object for a list", `{"tags":{"a":1}}`, "tags", "want a JSON array"},
		{"bad element", `{"tags":[[1]]}`, "tags", "element 1"},
		{"bad map key", `{"m":{"k":"x"}}`, "m", `value of key "k"`},
		{"array for a struct", `{"s":[1]}`, "s", "want a JSON object"},
		{"unknown struct field", `{"s":{"zz":1}}`, "s", `key "zz" is not a field`},
		{"deep bad value", `{"s":{"l":[1,"x"]}}`, "s", "field l: element 2"},
		{"nested into a primitive", `{"id":[1]}`, "id", "list, map and struct columns only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(writeFile(t, "n.jsonl", "{}\n"+tt.line+"\n"), nestedColumns(t), Options{Format: "jsonl"})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			for r.Next() {
			}
			var ve *ValueError
			if !errors.As(r.Err(), &ve) || ve.Line != 2 || ve.Column != tt.column || !strings.Contains(ve.Error(), tt.inMessage) {
				t.Fatalf("got %v, want a ValueError at line 2, column %s, saying %q", r.Err(), tt.column, tt.inMessage)
			}
		})
	}
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"array<int>", "map<string, decimal(9, 2)>", "struct<a: int, `b`: array<date>>", "array<<", "struct<a:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseType(s)
	})
}
