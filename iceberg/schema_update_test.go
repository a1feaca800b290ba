package iceberg

import (
	"errors"
	"testing"
)

func evolutionBase() *Schema {
	s, err := NewSchema(0, []NestedField{
		{ID: 1, Name: "id", Type: IntType{}, Required: true},
		{ID: 2, Name: "loc", Type: &StructType{FieldList: []NestedField{{ID: 3, Name: "lat", Type: FloatType{}}}}},
		{ID: 4, Name: "amount", Type: DecimalType{Precision: 9, Scale: 2}, Required: true},
		{ID: 5, Name: "pts", Type: &ListType{ElementID: 6, Element: IntType{}, ElementRequired: true}},
	}, 1)
	if err != nil {
		panic(err)
	}
	return s
}

func TestSchemaUpdate(t *testing.T) {
	s, last, err := NewSchemaUpdate(evolutionBase(), 6).
		AddColumn("", "tags", &MapType{KeyID: 100, Key: StringType{}, ValueID: 101, Value: StringType{}}, "labels").
		AddColumn("loc", "lon", DoubleType{}, "").
		AddRequiredColumn("", "region", StringType{}, "", "emea").
		RenameColumn("loc.lat", "latitude").
		UpdateColumnType("loc.latitude", DoubleType{}).
		UpdateColumnType("amount", DecimalType{Precision: 18, Scale: 2}).
		MakeColumnOptional("amount").
		MakeColumnOptional("pts.element").
		DeleteColumn("pts").
		Apply()
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != 1 || last != 11 {
		t.Fatalf("id %d last %d\n%s", s.ID, last, s)
	}
	checks := []struct {
		name string
		id   int
		typ  Type
		req  bool
	}{
		{"tags", 7, nil, false},
		{"tags.key", 8, StringType{}, true},
		{"loc.lon", 10, DoubleType{}, false},
		{"region", 11, StringType{}, true},
		{"loc.latitude", 3, DoubleType{}, false},
		{"amount", 4, DecimalType{Precision: 18, Scale: 2}, false},
	}
	for _, c := range checks {
		f, ok := s.FindFieldByName(c.name)
		if !ok || f.ID != c.id || (c.typ != nil && f.Type != c.typ) || f.Required != c.req {
			t.Errorf("%s: %v (ok=%v)", c.name, f, ok)
		}
	}
	if f, _ := s.FindFieldByName("region"); f.InitialDefault != "emea" || f.WriteDefault != "emea" {
		t.Error("required column default not set")
	}
	if _, ok := s.FindFieldByID(5); ok {
		t.Error("pts not dropped")
	}
}

func TestSchemaUpdateErrors(t *testing.T) {
	cases := []struct {
		name string
		op   func(u *SchemaUpdate) *SchemaUpdate
		want error
	}{
		{"drop missing", func(u *SchemaUpdate) *SchemaUpdate { return u.DeleteColumn("nope") }, ErrNoSuchField},
		{"rename missing", func(u *SchemaUpdate) *SchemaUpdate { return u.RenameColumn("nope", "x") }, ErrNoSuchField},
		{"narrow type", func(u *SchemaUpdate) *SchemaUpdate { return u.UpdateColumnType("loc.lat", IntType{}) }, ErrTypeMismatch},
		{"decimal scale", func(u *SchemaUpdate) *SchemaUpdate {
			return u.UpdateColumnType("amount", DecimalType{Precision: 18, Scale: 3})
		}, ErrTypeMismatch},
		{"nested to primitive", func(u *SchemaUpdate) *SchemaUpdate { return u.UpdateColumnType("loc", LongType{}) }, ErrTypeMismatch},
		{"add duplicate", func(u *SchemaUpdate) *SchemaUpdate { return u.AddColumn("", "id", IntType{}, "") }, ErrInvalidSchema},
		{"add to primitive", func(u *SchemaUpdate) *SchemaUpdate { return u.AddColumn("id", "x", IntType{}, "") }, ErrTypeMismatch},
		{"required without default", func(u *SchemaUpdate) *SchemaUpdate {
			return u.AddRequiredColumn("", "x", IntType{}, "", nil)
		}, ErrInvalidSchema},
		{"default of wrong type", func(u *SchemaUpdate) *SchemaUpdate {
			return u.AddRequiredColumn("", "x", IntType{}, "", "seven")
		}, ErrTypeMismatch},
		{"drop identifier", func(u *SchemaUpdate) *SchemaUpdate { return u.DeleteColumn("id") }, ErrInvalidSchema},
		{"rename onto sibling", func(u *SchemaUpdate) *SchemaUpdate { return u.RenameColumn("amount", "id") }, ErrInvalidSchema},
		{"drop list element", func(u *SchemaUpdate) *SchemaUpdate { return u.DeleteColumn("pts.element") }, ErrInvalidSchema},
		{"first error sticks", func(u *SchemaUpdate) *SchemaUpdate {
			return u.DeleteColumn("nope").AddColumn("", "id", IntType{}, "")
		}, ErrNoSuchField},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := c.op(NewSchemaUpdate(evolutionBase(), 6)).Apply()
			if !errors.Is(err, c.want) {
				t.Fatalf("want %v, got %v", c.want, err)
			}
		})
	}
}
