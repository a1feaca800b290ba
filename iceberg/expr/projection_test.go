package expr

import (
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestProjectionStrings(t *testing.T) {
	spec := &iceberg.PartitionSpec{ID: 1, Fields: []iceberg.PartitionField{
		{SourceID: 5, FieldID: 1000, Name: "event_day", Transform: iceberg.DayTransform{}},
		{SourceID: 3, FieldID: 1001, Name: "s_trunc", Transform: iceberg.TruncateTransform{W: 3}},
		{SourceID: 2, FieldID: 1002, Name: "n_bucket", Transform: iceberg.BucketTransform{N: 16}},
		{SourceID: 1, FieldID: 1003, Name: "id", Transform: iceberg.IdentityTransform{}},
	}}
	cases := []struct {
		in              Expr
		inclusive, strc string
	}{
		{Lt("event_ts", "2026-09-02T00:00:00"), "event_day <= 2026-09-01", "event_day < 2026-09-02"},
		{GtEq("event_ts", "2026-09-01T00:00:00"), "event_day >= 2026-09-01", "event_day > 2026-08-31"},
		{Eq("event_ts", "2026-09-01T12:00:00"), "event_day = 2026-09-01", "FALSE"},
		{Eq("event_ts", "1969-12-31T12:00:00"), "event_day IN (1969-12-31, 1970-01-01)", "FALSE"},
		{StartsWith("s", "ab"), "s_trunc STARTS WITH 'ab'", "s_trunc STARTS WITH 'ab'"},
		{StartsWith("s", "abcd"), "s_trunc = 'abc'", "FALSE"},
		{NotStartsWith("s", "abc"), "s_trunc != 'abc'", "s_trunc != 'abc'"},
		{Eq("n", 34), "n_bucket = 3", "FALSE"},
		{NotEq("n", 34), "TRUE", "n_bucket != 3"},
		{Lt("n", 34), "TRUE", "FALSE"},
		{Gt("id", 7), "id > 7", "id > 7"},
		{And(Eq("id", 1), Lt("f", 2.0)), "id = 1", "FALSE"},
		{Or(Eq("id", 1), Lt("f", 2.0)), "TRUE", "id = 1"},
		{IsNull("event_ts"), "event_day IS NULL", "event_day IS NULL"},
	}
	for _, c := range cases {
		t.Run(c.in.String(), func(t *testing.T) {
			b := mustBind(t, c.in)
			in, err := InclusiveProjection(spec, testSchema, b)
			if err != nil {
				t.Fatal(err)
			}
			st, err := StrictProjection(spec, testSchema, b)
			if err != nil {
				t.Fatal(err)
			}
			if in.String() != c.inclusive {
				t.Errorf("inclusive = %q, want %q", in, c.inclusive)
			}
			if st.String() != c.strc {
				t.Errorf("strict = %q, want %q", st, c.strc)
			}
		})
	}
}

func TestProjectionBadSpec(t *testing.T) {
	spec := &iceberg.PartitionSpec{ID: 1, Fields: []iceberg.PartitionField{{SourceID: 99, FieldID: 1000, Name: "x", Transform: iceberg.IdentityTransform{}}}}
	if _, err := InclusiveProjection(spec, testSchema, AlwaysTrue{}); err == nil {
		t.Fatal("want an error for a spec whose source field is missing")
	}
}

func TestManifestEvaluator(t *testing.T) {
	spec := &iceberg.PartitionSpec{ID: 1, Fields: []iceberg.PartitionField{
		{SourceID: 5, FieldID: 1000, Name: "event_day", Transform: iceberg.DayTransform{}},
		{SourceID: 4, FieldID: 1001, Name: "f", Transform: iceberg.IdentityTransform{}},
	}}
	day := func(s string) []byte {
		v, _, err := convertLiteral(iceberg.DateType{}, s)
		if err != nil {
			t.Fatal(err)
		}
		return ser(t, iceberg.DateType{}, v)
	}
	yes, no := true, false
	summary := func(lo, hi string, null bool) iceberg.FieldSummary {
		s := iceberg.FieldSummary{ContainsNull: null}
		if lo != "" {
			s.LowerBound, s.UpperBound = day(lo), day(hi)
		}
		return s
	}
	floats := iceberg.FieldSummary{ContainsNaN: &no, LowerBound: ser(t, iceberg.DoubleType{}, 1.0), UpperBound: ser(t, iceberg.DoubleType{}, 2.0)}
	onlyNaN := iceberg.FieldSummary{ContainsNaN: &yes}
	sept := summary("2026-09-01", "2026-09-30", false)
	cases := []struct {
		name string
		e    Expr
		sums []iceberg.FieldSummary
		want bool
	}{
		{"day inside", Eq("event_ts", "2026-09-05T10:00:00"), []iceberg.FieldSummary{sept, floats}, true},
		{"day before", Eq("event_ts", "2026-08-05T10:00:00"), []iceberg.FieldSummary{sept, floats}, false},
		{"day after", Gt("event_ts", "2026-10-01T00:00:00"), []iceberg.FieldSummary{sept, floats}, false},
		{"lt lower edge", Lt("event_ts", "2026-09-01T00:00:00"), []iceberg.FieldSummary{sept, floats}, false},
		{"lt just after", Lt("event_ts", "2026-09-01T00:00:01"), []iceberg.FieldSummary{sept, floats}, true},
		{"all null", Eq("event_ts", "2026-09-05T10:00:00"), []iceberg.FieldSummary{summary("", "", true), floats}, false},
		{"is null none", IsNull("event_ts"), []iceberg.FieldSummary{sept, floats}, false},
		{"is null some", IsNull("event_ts"), []iceberg.FieldSummary{summary("2026-09-01", "2026-09-02", true), floats}, true},
		{"not null all null", NotNull("event_ts"), []iceberg.FieldSummary{summary("", "", true), floats}, false},
		{"in misses", In("event_ts", "2026-08-01T00:00:00", "2026-10-02T00:00:00"), []iceberg.FieldSummary{sept, floats}, false},
		{"in hits", In("event_ts", "2026-08-01T00:00:00", "2026-09-02T00:00:00"), []iceberg.FieldSummary{sept, floats}, true},
		{"is nan none", IsNaN("f"), []iceberg.FieldSummary{sept, floats}, false},
		{"not nan only nan", NotNaN("f"), []iceberg.FieldSummary{sept, onlyNaN}, false},
		{"float range", Gt("f", 2.5), []iceberg.FieldSummary{sept, floats}, false},
		{"or one side", Or(Gt("f", 2.5), Eq("event_ts", "2026-09-05T10:00:00")), []iceberg.FieldSummary{sept, floats}, true},
		{"no summaries", Eq("event_ts", "2026-08-05T10:00:00"), nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, err := NewManifestEvaluatorFor(spec, testSchema, mustBind(t, c.e))
			if err != nil {
				t.Fatal(err)
			}
			got, err := ev.Eval(&iceberg.ManifestFile{Partitions: c.sums})
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("might match = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("corrupt summary", func(t *testing.T) {
		ev, _ := NewManifestEvaluatorFor(spec, testSchema, mustBind(t, Eq("event_ts", "2026-09-05")))
		bad := iceberg.FieldSummary{LowerBound: []byte{1}, UpperBound: []byte{1}}
		if _, err := ev.Eval(&iceberg.ManifestFile{Partitions: []iceberg.FieldSummary{bad, floats}}); err == nil {
			t.Fatal("want a decode error")
		}
	})
}
