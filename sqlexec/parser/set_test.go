package parser

import (
	"reflect"
	"testing"
)

func TestSessionPropertyStatements(t *testing.T) {
	tests := []struct {
		in   string
		want Statement
	}{
		{"SET", &SetPropertyStmt{}},
		{"set spark.wap.id = audit-42", &SetPropertyStmt{Key: "spark.wap.id", Value: "audit-42", HasValue: true}},
		{"SET spark.wap.id='a b'", &SetPropertyStmt{Key: "spark.wap.id", Value: "a b", HasValue: true}},
		{"SET 'my key' = 1 + 2", &SetPropertyStmt{Key: "my key", Value: "1 + 2", HasValue: true}},
		{"SET spark.wap.id", &SetPropertyStmt{Key: "spark.wap.id"}},
		{"SET spark.wap.id =", &SetPropertyStmt{Key: "spark.wap.id", HasValue: true}}, // the empty string, as Spark
		{"RESET", &ResetPropertyStmt{}},
		{"reset spark.wap.id", &ResetPropertyStmt{Key: "spark.wap.id"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseOne(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
			again, err := ParseOne(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("%q does not parse back: %#v, %v", got.String(), again, err)
			}
		})
	}
	// MySQL's SET forms are still TiDB's.
	for _, in := range []string{"SET @x = 1", "SET NAMES utf8", "SET autocommit = 1"} {
		st, err := ParseOne(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if _, ok := st.(*TiDBStmt); !ok {
			t.Errorf("%s parsed as %T, want a TiDB statement", in, st)
		}
	}
	if _, err := ParseOne("RESET a.b c"); err == nil {
		t.Error("RESET with trailing input parsed")
	}
}
