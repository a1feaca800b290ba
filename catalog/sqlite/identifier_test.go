package sqlite

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseIdentifier(t *testing.T) {
	tests := []struct {
		in      string
		want    Identifier
		wantErr bool
	}{
		{"db.t", Identifier{Namespace: []string{"db"}, Name: "t"}, false},
		{"a.b.c.t", Identifier{Namespace: []string{"a", "b", "c"}, Name: "t"}, false},
		{"t", Identifier{}, true},
		{"", Identifier{}, true},
		{"db.", Identifier{}, true},
		{".t", Identifier{}, true},
		{"a..t", Identifier{}, true},
		{"a.t\x00", Identifier{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseIdentifier(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrInvalidIdentifier) {
					t.Fatalf("ParseIdentifier(%q) err = %v, want ErrInvalidIdentifier", tt.in, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
			if got.String() != tt.in {
				t.Fatalf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

func TestValidateNamespaceRejectsDots(t *testing.T) {
	if err := validateNamespace([]string{"a.b"}); !errors.Is(err, ErrInvalidIdentifier) {
		t.Fatalf("err = %v, want ErrInvalidIdentifier", err)
	}
	if err := validateNamespace(nil); !errors.Is(err, ErrInvalidIdentifier) {
		t.Fatalf("err = %v, want ErrInvalidIdentifier", err)
	}
}

func FuzzParseIdentifier(f *testing.F) {
	for _, s := range []string{"a.t", "a.b.t", "", ".", "a..b", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseIdentifier(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidIdentifier) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		if id.String() != s {
			t.Fatalf("round trip: %q -> %q", s, id.String())
		}
		if err := validateIdent(id); err != nil {
			t.Fatalf("parsed identifier fails validation: %v", err)
		}
	})
}
