package iceberg

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func testPartitionSchema() *Schema {
	return MustSchema(0,
		NestedField{ID: 1, Name: "id", Type: LongType{}, Required: true},
		NestedField{ID: 2, Name: "name", Type: StringType{}},
		NestedField{ID: 3, Name: "ts", Type: TimestampType{}},
		NestedField{ID: 4, Name: "d", Type: DateType{}},
		NestedField{ID: 5, Name: "price", Type: DecimalType{Precision: 10, Scale: 2}},
		NestedField{ID: 6, Name: "loc", Type: &StructType{FieldList: []NestedField{{ID: 7, Name: "city", Type: StringType{}}}}},
		NestedField{ID: 8, Name: "tags", Type: &ListType{ElementID: 9, Element: StringType{}}},
		NestedField{ID: 10, Name: "score", Type: DoubleType{}},
	)
}

func TestPartitionSpecBuilder(t *testing.T) {
	schema := testPartitionSchema()
	spec, err := NewPartitionSpecBuilder(schema).WithSpecID(2).
		Day("ts").Bucket("id", 16).Truncate("name", 4).Identity("d").Identity("loc.city").Void("score").Build()
	if err != nil {
		t.Fatal(err)
	}
	want := []PartitionField{
		{SourceID: 3, FieldID: 1000, Name: "ts_day", Transform: DayTransform{}},
		{SourceID: 1, FieldID: 1001, Name: "id_bucket_16", Transform: BucketTransform{N: 16}},
		{SourceID: 2, FieldID: 1002, Name: "name_trunc_4", Transform: TruncateTransform{W: 4}},
		{SourceID: 4, FieldID: 1003, Name: "d", Transform: IdentityTransform{}},
		{SourceID: 7, FieldID: 1004, Name: "loc.city", Transform: IdentityTransform{}},
		{SourceID: 10, FieldID: 1005, Name: "score_null", Transform: VoidTransform{}},
	}
	if spec.ID != 2 || !reflect.DeepEqual(spec.Fields, want) {
		t.Fatalf("got %+v", spec)
	}
	if spec.LastAssignedFieldID() != 1005 {
		t.Fatalf("LastAssignedFieldID = %d", spec.LastAssignedFieldID())
	}
	cont, err := NewPartitionSpecBuilder(schema).WithLastAssignedFieldID(1005).Hour("ts").Build()
	if err != nil || cont.Fields[0].FieldID != 1006 || cont.Fields[0].Name != "ts_hour" {
		t.Fatalf("continued ids: %+v, %v", cont, err)
	}
}

func TestPartitionSpecBuilderRejects(t *testing.T) {
	schema := testPartitionSchema()
	cases := []struct {
		name  string
		build func(*PartitionSpecBuilder) *PartitionSpecBuilder
	}{
		{"missing column", func(b *PartitionSpecBuilder) *PartitionSpecBuilder { return b.Identity("nope") }},
		{"wrong type", func(b *PartitionSpecBuilder) *PartitionSpecBuilder { return b.Hour("d") }},
		{"bucket on double", func(b *PartitionSpecBuilder) *PartitionSpecBuilder { return b.Bucket("score", 4) }},
		{"struct source", func(b *PartitionSpecBuilder) *PartitionSpecBuilder { return b.Identity("loc") }},
		{"inside list", func(b *PartitionSpecBuilder) *PartitionSpecBuilder { return b.Identity("tags.element") }},
		{"duplicate name", func(b *PartitionSpecBuilder) *PartitionSpecBuilder {
			return b.Add("id", BucketTransform{N: 2}, "p").Add("name", IdentityTransform{}, "p")
		}},
		{"two time transforms", func(b *PartitionSpecBuilder) *PartitionSpecBuilder { return b.Day("ts").Hour("ts") }},
		{"same bucket twice", func(b *PartitionSpecBuilder) *PartitionSpecBuilder {
			return b.Bucket("id", 4).Add("id", BucketTransform{N: 4}, "other")
		}},
		{"name shadows column", func(b *PartitionSpecBuilder) *PartitionSpecBuilder {
			return b.Add("id", BucketTransform{N: 4}, "name")
		}},
		{"unknown transform", func(b *PartitionSpecBuilder) *PartitionSpecBuilder {
			return b.Add("id", UnknownTransform{Name: "zorder"}, "z")
		}},
		{"nil transform", func(b *PartitionSpecBuilder) *PartitionSpecBuilder { return b.Add("id", nil, "x") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.build(NewPartitionSpecBuilder(schema)).Build()
			if !errors.Is(err, ErrInvalidPartitionSpec) {
				t.Fatalf("error = %v, want ErrInvalidPartitionSpec", err)
			}
		})
	}
	// Different buckets of one column are allowed, as in Java.
	if _, err := NewPartitionSpecBuilder(schema).Bucket("id", 4).Bucket("id", 8).Build(); err != nil {
		t.Fatal(err)
	}
}

func TestPartitionSpecJSON(t *testing.T) {
	spec, err := NewPartitionSpecBuilder(testPartitionSchema()).Day("ts").Bucket("id", 16).Build()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"spec-id":0,"fields":[{"source-id":3,"field-id":1000,"name":"ts_day","transform":"day"},` +
		`{"source-id":1,"field-id":1001,"name":"id_bucket_16","transform":"bucket[16]"}]}`
	if string(b) != want {
		t.Fatalf("got %s", b)
	}
	fields, _ := json.Marshal(spec.Fields)
	if string(fields) != want[len(`{"spec-id":0,"fields":`):len(want)-1] {
		t.Fatalf("fields array: %s", fields)
	}
	var back PartitionSpec
	if err := json.Unmarshal(b, &back); err != nil || !back.Equals(spec) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	unpart, _ := json.Marshal(UnpartitionedSpec)
	if string(unpart) != `{"spec-id":0,"fields":[]}` {
		t.Fatalf("unpartitioned: %s", unpart)
	}
}

func TestPartitionSpecJSONReading(t *testing.T) {
	t.Run("v1 fields get ids", func(t *testing.T) {
		fields, err := ParsePartitionFields(json.RawMessage(`[{"source-id":1,"name":"a","transform":"identity"},{"source-id":2,"name":"b","transform":"void"}]`))
		if err != nil || fields[0].FieldID != 1000 || fields[1].FieldID != 1001 || fields[1].Transform != (VoidTransform{}) {
			t.Fatalf("%+v, %v", fields, err)
		}
	})
	t.Run("v3 source-ids of one", func(t *testing.T) {
		var f PartitionField
		err := json.Unmarshal([]byte(`{"source-ids":[3],"field-id":1000,"name":"a","transform":"day"}`), &f)
		if err != nil || f.SourceID != 3 {
			t.Fatalf("%+v, %v", f, err)
		}
	})
	t.Run("unknown transform kept", func(t *testing.T) {
		var spec PartitionSpec
		err := json.Unmarshal([]byte(`{"spec-id":1,"fields":[{"source-id":1,"field-id":1000,"name":"z","transform":"zorder"}]}`), &spec)
		if err != nil || spec.Fields[0].Transform != (UnknownTransform{Name: "zorder"}) {
			t.Fatalf("%+v, %v", spec, err)
		}
		out, _ := json.Marshal(spec)
		if string(out) != `{"spec-id":1,"fields":[{"source-id":1,"field-id":1000,"name":"z","transform":"zorder"}]}` {
			t.Fatalf("rewritten as %s", out)
		}
	})
	bad := map[string]string{
		"no spec-id":     `{"fields":[]}`,
		"no fields":      `{"spec-id":0}`,
		"no source":      `{"spec-id":0,"fields":[{"field-id":1000,"name":"a","transform":"day"}]}`,
		"multi source":   `{"spec-id":0,"fields":[{"source-ids":[1,2],"field-id":1000,"name":"a","transform":"day"}]}`,
		"no name":        `{"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"transform":"day"}]}`,
		"no transform":   `{"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"name":"a"}]}`,
		"duplicate id":   `{"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"name":"a","transform":"day"},{"source-id":2,"field-id":1000,"name":"b","transform":"day"}]}`,
		"negative id":    `{"spec-id":0,"fields":[{"source-id":1,"field-id":-5,"name":"a","transform":"day"}]}`,
		"not an object":  `[1]`,
		"wrong type":     `{"spec-id":"x","fields":[]}`,
		"field not obj":  `{"spec-id":0,"fields":[3]}`,
		"name not a str": `{"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"name":4,"transform":"day"}]}`,
	}
	for name, js := range bad {
		t.Run(name, func(t *testing.T) {
			var spec PartitionSpec
			if err := json.Unmarshal([]byte(js), &spec); !errors.Is(err, ErrInvalidPartitionSpec) {
				t.Fatalf("error = %v, want ErrInvalidPartitionSpec", err)
			}
		})
	}
}

func TestPartitionTypeAndTuple(t *testing.T) {
	schema := testPartitionSchema()
	spec, err := NewPartitionSpecBuilder(schema).Day("ts").Bucket("id", 16).Hour("ts").Add("name", IdentityTransform{}, "n").Void("score").Build()
	if err == nil {
		t.Fatal("day and hour on one column must be rejected")
	}
	spec, err = NewPartitionSpecBuilder(schema).Day("ts").Bucket("id", 16).Add("name", IdentityTransform{}, "n").Void("score").Build()
	if err != nil {
		t.Fatal(err)
	}
	pt, err := spec.PartitionType(schema)
	if err != nil {
		t.Fatal(err)
	}
	wantType := &StructType{FieldList: []NestedField{
		{ID: 1000, Name: "ts_day", Type: DateType{}},
		{ID: 1001, Name: "id_bucket_16", Type: IntType{}},
		{ID: 1002, Name: "n", Type: StringType{}},
		{ID: 1003, Name: "score_null", Type: DoubleType{}},
	}}
	if !TypesEqual(pt, wantType) {
		t.Fatalf("PartitionType = %s", pt)
	}
	row := map[int]any{1: int64(34), 2: "a b/c~", 3: mustTS(t, "2026-09-01T13:00:00Z"), 10: 1.5}
	tuple, err := spec.Partition(schema, func(id int) any { return row[id] })
	if err != nil {
		t.Fatal(err)
	}
	want := []any{mustDate(t, "2026-09-01"), int32(2017239379 % 16), "a b/c~", nil}
	if !reflect.DeepEqual(tuple, want) {
		t.Fatalf("tuple = %#v", tuple)
	}
	path, err := spec.PartitionPath(tuple, schema)
	if err != nil || path != "ts_day=2026-09-01/id_bucket_16=3/n=a+b%2Fc%7E/score_null=null" {
		t.Fatalf("path = %q, %v", path, err)
	}
	row[1] = "not a long"
	if _, err := spec.Partition(schema, func(id int) any { return row[id] }); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("wrong source type: %v", err)
	}
	if _, err := spec.PartitionPath(tuple[:2], schema); !errors.Is(err, ErrInvalidPartitionSpec) {
		t.Fatalf("short tuple: %v", err)
	}
	if _, err := spec.PartitionPath([]any{int32(1), int32(1), "x", nil}, schema); !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("int for date: %v", err)
	}
}

func TestPartitionPathTimeForms(t *testing.T) {
	schema := testPartitionSchema()
	ts := mustTS(t, "2026-09-01T13:05:00Z")
	cases := []struct {
		tr   Transform
		want string
	}{
		{YearTransform{}, "ts_year=2026"},
		{MonthTransform{}, "ts_month=2026-09"},
		{DayTransform{}, "ts_day=2026-09-01"},
		{HourTransform{}, "ts_hour=2026-09-01-13"},
		{IdentityTransform{}, "ts=2026-09-01T13%3A05"},
	}
	for _, c := range cases {
		t.Run(c.tr.String(), func(t *testing.T) {
			spec, err := NewPartitionSpecBuilder(schema).Add("ts", c.tr, "").Build()
			if err != nil {
				t.Fatal(err)
			}
			tuple, err := spec.Partition(schema, func(int) any { return ts })
			if err != nil {
				t.Fatal(err)
			}
			if got, err := spec.PartitionPath(tuple, schema); err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestPartitionSpecCompatibility(t *testing.T) {
	schema := testPartitionSchema()
	a, _ := NewPartitionSpecBuilder(schema).Day("ts").Build()
	b, _ := NewPartitionSpecBuilder(schema).WithSpecID(3).WithLastAssignedFieldID(1010).Day("ts").Build()
	c, _ := NewPartitionSpecBuilder(schema).Month("ts").Build()
	if !a.CompatibleWith(b) || a.Equals(b) || a.CompatibleWith(c) || !a.Equals(a) {
		t.Fatal("CompatibleWith/Equals disagree with their definitions")
	}
	if !UnpartitionedSpec.IsUnpartitioned() {
		t.Fatal("unpartitioned")
	}
}
