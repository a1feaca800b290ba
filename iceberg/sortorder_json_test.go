package iceberg

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestSortOrderBuilderAndJSON(t *testing.T) {
	schema := testPartitionSchema()
	order, err := NewSortOrderBuilder(schema).Asc("name").Add("id", BucketTransform{N: 4}, SortDesc, NullsLast).Build()
	if err != nil {
		t.Fatal(err)
	}
	if order.OrderID != 1 || order.IsUnsorted() {
		t.Fatalf("got %+v", order)
	}
	b, err := json.Marshal(order)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"order-id":1,"fields":[{"transform":"identity","source-id":2,"direction":"asc","null-order":"nulls-first"},` +
		`{"transform":"bucket[4]","source-id":1,"direction":"desc","null-order":"nulls-last"}]}`
	if string(b) != want {
		t.Fatalf("got %s", b)
	}
	var back SortOrder
	if err := json.Unmarshal(b, &back); err != nil || !back.Equals(order) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	unsorted, _ := json.Marshal(UnsortedOrder)
	if string(unsorted) != `{"order-id":0,"fields":[]}` {
		t.Fatalf("unsorted: %s", unsorted)
	}
	if err := json.Unmarshal(unsorted, &back); err != nil || !back.IsUnsorted() || back.OrderID != 0 {
		t.Fatalf("unsorted round trip: %+v, %v", back, err)
	}
	empty, err := NewSortOrderBuilder(schema).Build()
	if err != nil || !empty.Equals(UnsortedOrder) {
		t.Fatalf("empty builder: %+v, %v", empty, err)
	}
}

func TestSortOrderRejects(t *testing.T) {
	schema := testPartitionSchema()
	builds := map[string]func(*SortOrderBuilder) *SortOrderBuilder{
		"missing column":   func(b *SortOrderBuilder) *SortOrderBuilder { return b.Asc("nope") },
		"struct column":    func(b *SortOrderBuilder) *SortOrderBuilder { return b.Asc("loc") },
		"list element":     func(b *SortOrderBuilder) *SortOrderBuilder { return b.Asc("tags.element") },
		"bad transform":    func(b *SortOrderBuilder) *SortOrderBuilder { return b.Add("d", HourTransform{}, SortAsc, NullsFirst) },
		"bad direction":    func(b *SortOrderBuilder) *SortOrderBuilder { return b.Add("id", IdentityTransform{}, "up", NullsFirst) },
		"bad null order":   func(b *SortOrderBuilder) *SortOrderBuilder { return b.Add("id", IdentityTransform{}, SortAsc, "") },
		"id 0 with fields": func(b *SortOrderBuilder) *SortOrderBuilder { return b.WithOrderID(0).Asc("id") },
		"id 2 no fields":   func(b *SortOrderBuilder) *SortOrderBuilder { return b.WithOrderID(2) },
	}
	for name, build := range builds {
		t.Run(name, func(t *testing.T) {
			if _, err := build(NewSortOrderBuilder(schema)).Build(); !errors.Is(err, ErrInvalidMetadata) {
				t.Fatalf("error = %v, want ErrInvalidMetadata", err)
			}
		})
	}
	jsons := map[string]string{
		"no order-id":   `{"fields":[]}`,
		"no fields":     `{"order-id":1}`,
		"bad direction": `{"order-id":1,"fields":[{"transform":"identity","source-id":1,"direction":"up","null-order":"nulls-first"}]}`,
		"bad nulls":     `{"order-id":1,"fields":[{"transform":"identity","source-id":1,"direction":"asc","null-order":"x"}]}`,
		"no source":     `{"order-id":1,"fields":[{"transform":"identity","direction":"asc","null-order":"nulls-first"}]}`,
		"no transform":  `{"order-id":1,"fields":[{"source-id":1,"direction":"asc","null-order":"nulls-first"}]}`,
		"fields object": `{"order-id":1,"fields":{}}`,
		"not object":    `7`,
	}
	for name, js := range jsons {
		t.Run("json "+name, func(t *testing.T) {
			var o SortOrder
			if err := json.Unmarshal([]byte(js), &o); !errors.Is(err, ErrInvalidMetadata) {
				t.Fatalf("error = %v, want ErrInvalidMetadata", err)
			}
		})
	}
	t.Run("json case-insensitive", func(t *testing.T) {
		var o SortOrder
		err := json.Unmarshal([]byte(`{"order-id":3,"fields":[{"transform":"Day","source-id":3,"direction":"DESC","null-order":"Nulls-Last"}]}`), &o)
		if err != nil || o.Fields[0].Direction != SortDesc || o.Fields[0].NullOrder != NullsLast || o.Fields[0].Transform != (DayTransform{}) {
			t.Fatalf("%+v, %v", o, err)
		}
	})
}

// Spec and sort-order JSON come from metadata files written by any engine;
// decoding must never panic and what decodes must re-encode.
func FuzzSpecAndSortJSON(f *testing.F) {
	f.Add(`{"spec-id":0,"fields":[{"source-id":3,"field-id":1000,"name":"ts_day","transform":"day"}]}`)
	f.Add(`{"order-id":1,"fields":[{"transform":"bucket[4]","source-id":1,"direction":"desc","null-order":"nulls-last"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		var spec PartitionSpec
		if json.Unmarshal([]byte(s), &spec) == nil {
			if _, err := json.Marshal(spec); err != nil {
				t.Fatalf("spec re-encode: %v", err)
			}
		}
		var order SortOrder
		if json.Unmarshal([]byte(s), &order) == nil {
			if _, err := json.Marshal(order); err != nil {
				t.Fatalf("order re-encode: %v", err)
			}
		}
	})
}

func FuzzParseTransform(f *testing.F) {
	for _, s := range []string{"identity", "bucket[16]", "truncate[4]", "year", "void", "bucket[", "[]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ParseTransform(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidTransform) {
				t.Fatalf("error without ErrInvalidTransform: %v", err)
			}
			return
		}
		again, err := ParseTransform(tr.String())
		if err != nil || again != tr {
			t.Fatalf("%q -> %v -> %v, %v", s, tr, again, err)
		}
	})
}
