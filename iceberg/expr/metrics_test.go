package expr

import (
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

type fileCase struct {
	name string
	file *iceberg.DataFile
}

// longFiles are the metric shapes every predicate is checked against;
// predicates use literal 30 over a file with values in [20, 40] etc.
func longFiles(t *testing.T) []fileCase {
	missing := &iceberg.DataFile{RecordCount: 5}
	return []fileCase{
		{"below", fileOf(t, 1, iceberg.LongType{}, int64(1), int64(10))},
		{"overlap", fileOf(t, 1, iceberg.LongType{}, int64(20), int64(40))},
		{"above", fileOf(t, 1, iceberg.LongType{}, int64(50), int64(60))},
		{"exact", fileOf(t, 1, iceberg.LongType{}, int64(30), int64(30))},
		{"allnull", fileOf(t, 1, iceberg.LongType{}, nil, nil)},
		{"somenull", fileOf(t, 1, iceberg.LongType{}, nil, int64(30))},
		{"missing", missing},
		{"empty", &iceberg.DataFile{RecordCount: 0}},
	}
}

func TestInclusiveMetricsLong(t *testing.T) {
	n := iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}}
	schema := iceberg.MustSchema(0, n)
	// want[i] matches longFiles order: below overlap above exact allnull somenull missing empty
	cases := []struct {
		e    Expr
		want [8]bool
	}{
		{Lt("x", 30), [8]bool{true, true, false, false, false, false, true, false}},
		{LtEq("x", 30), [8]bool{true, true, false, true, false, true, true, false}},
		{Gt("x", 30), [8]bool{false, true, true, false, false, false, true, false}},
		{GtEq("x", 30), [8]bool{false, true, true, true, false, true, true, false}},
		{Eq("x", 30), [8]bool{false, true, false, true, false, true, true, false}},
		{NotEq("x", 30), [8]bool{true, true, true, true, true, true, true, false}},
		{In("x", 5, 55), [8]bool{true, false, true, false, false, false, true, false}},
		{In("x", 15, 45), [8]bool{false, false, false, false, false, false, true, false}},
		{NotIn("x", 30, 31), [8]bool{true, true, true, true, true, true, true, false}},
		{IsNull("x"), [8]bool{false, false, false, false, true, true, true, false}},
		{NotNull("x"), [8]bool{true, true, true, true, false, true, true, false}},
	}
	files := longFiles(t)
	for _, c := range cases {
		b, err := Bind(schema, c.e, true)
		if err != nil {
			t.Fatal(err)
		}
		ev := NewInclusiveMetricsEvaluator(b)
		for i, fc := range files {
			t.Run(c.e.String()+"/"+fc.name, func(t *testing.T) {
				got, err := ev.Eval(fc.file)
				if err != nil {
					t.Fatal(err)
				}
				if got != c.want[i] {
					t.Errorf("might match = %v, want %v", got, c.want[i])
				}
			})
		}
	}
}

func TestInclusiveMetricsNaN(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.DoubleType{}})
	allNaN := fileOf(t, 1, iceberg.DoubleType{}, nan, nan)
	someNaN := fileOf(t, 1, iceberg.DoubleType{}, nan, 1.0, 2.0)
	noNaN := fileOf(t, 1, iceberg.DoubleType{}, 1.0, 2.0)
	noCounts := fileOf(t, 1, iceberg.DoubleType{}, 1.0, 2.0)
	noCounts.NaNValueCounts = nil
	// a NaN lower bound (written by some engines) makes bounds unreliable
	nanLower := fileOf(t, 1, iceberg.DoubleType{}, 1.0, 2.0)
	nanLower.LowerBounds[1] = ser(t, iceberg.DoubleType{}, nan)
	nanLower.NaNValueCounts = nil
	cases := []struct {
		e    Expr
		file *iceberg.DataFile
		name string
		want bool
	}{
		{IsNaN("x"), allNaN, "allNaN", true},
		{IsNaN("x"), noNaN, "noNaN", false},
		{IsNaN("x"), noCounts, "noCounts", true},
		{NotNaN("x"), allNaN, "allNaN", false},
		{NotNaN("x"), someNaN, "someNaN", true},
		{Lt("x", 5.0), allNaN, "allNaN", false},
		{Gt("x", 0.0), allNaN, "allNaN", false},
		{Eq("x", 1.0), allNaN, "allNaN", false},
		{Lt("x", 0.5), someNaN, "someNaN", false},
		{Gt("x", 1.5), someNaN, "someNaN", true},
		{Lt("x", 0.5), nanLower, "nanLower", true},
		{Eq("x", 0.5), nanLower, "nanLower", true},
		{In("x", 0.5), nanLower, "nanLower", true},
		{In("x", 0.5, 3.0), noNaN, "noNaN", false},
	}
	for _, c := range cases {
		t.Run(c.e.String()+"/"+c.name, func(t *testing.T) {
			b, err := Bind(schema, c.e, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := NewInclusiveMetricsEvaluator(b).Eval(c.file)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("might match = %v, want %v", got, c.want)
			}
		})
	}
}

func TestInclusiveMetricsStrings(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "s", Type: iceberg.StringType{}})
	// bounds truncated to 4 chars as a writer with truncate(4) would:
	// values "abcdef".."abzzzz" -> lower "abcd", upper "ac" (incremented)
	truncated := &iceberg.DataFile{
		RecordCount: 10, ValueCounts: map[int]int64{1: 10}, NullValueCounts: map[int]int64{1: 0},
		LowerBounds: map[int][]byte{1: []byte("abcd")}, UpperBounds: map[int][]byte{1: []byte("abz{")},
	}
	allPrefixed := fileOf(t, 1, iceberg.StringType{}, "abc1", "abc9")
	cases := []struct {
		e    Expr
		file *iceberg.DataFile
		want bool
	}{
		{StartsWith("s", "ab"), truncated, true},
		{StartsWith("s", "abcdefgh"), truncated, true},
		{StartsWith("s", "abb"), truncated, false},
		{StartsWith("s", "ac"), truncated, false},
		{StartsWith("s", "a"), truncated, true},
		{Eq("s", "abcdzzz"), truncated, true},
		{Eq("s", "abc"), truncated, false},
		{Lt("s", "abcd"), truncated, false},
		{NotStartsWith("s", "abc"), allPrefixed, false},
		{NotStartsWith("s", "abc1"), allPrefixed, true},
		{NotStartsWith("s", "ab"), truncated, false},
		{NotStartsWith("s", "abz{"), truncated, true},
	}
	for _, c := range cases {
		t.Run(c.e.String(), func(t *testing.T) {
			b, err := Bind(schema, c.e, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := NewInclusiveMetricsEvaluator(b).Eval(c.file)
			if err != nil || got != c.want {
				t.Errorf("might match = %v (%v), want %v", got, err, c.want)
			}
		})
	}
}

func TestMetricsCorruptBound(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	f := fileOf(t, 1, iceberg.LongType{}, int64(1), int64(2))
	f.LowerBounds[1] = []byte{1, 2, 3}
	b, err := Bind(schema, Lt("x", 0), true)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewInclusiveMetricsEvaluator(b).Eval(f)
	var de *BoundDecodeError
	if !errors.Is(err, ErrInvalidBound) || !errors.As(err, &de) || de.FieldID != 1 {
		t.Fatalf("inclusive error = %v, want *BoundDecodeError for field 1", err)
	}
	if b, err = Bind(schema, Gt("x", 0), true); err != nil {
		t.Fatal(err)
	}
	if _, err := NewStrictMetricsEvaluator(b).Eval(f); !errors.Is(err, ErrInvalidBound) {
		t.Fatalf("strict error = %v", err)
	}
}

func TestStrictMetricsLong(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	// below overlap above exact allnull somenull missing empty
	cases := []struct {
		e    Expr
		want [8]bool
	}{
		{Lt("x", 30), [8]bool{true, false, false, false, false, false, false, true}},
		{LtEq("x", 30), [8]bool{true, false, false, true, false, false, false, true}},
		{Gt("x", 15), [8]bool{false, true, true, true, false, false, false, true}},
		{GtEq("x", 20), [8]bool{false, true, true, true, false, false, false, true}},
		{Eq("x", 30), [8]bool{false, false, false, true, false, false, false, true}},
		{NotEq("x", 30), [8]bool{true, false, true, false, false, false, false, true}},
		{In("x", 30, 31), [8]bool{false, false, false, true, false, false, false, true}},
		{NotIn("x", 30, 45), [8]bool{true, false, true, false, false, false, false, true}},
		{IsNull("x"), [8]bool{false, false, false, false, true, false, false, true}},
		{NotNull("x"), [8]bool{true, true, true, true, false, false, false, true}},
	}
	files := longFiles(t)
	for _, c := range cases {
		b, err := Bind(schema, c.e, true)
		if err != nil {
			t.Fatal(err)
		}
		ev := NewStrictMetricsEvaluator(b)
		for i, fc := range files {
			t.Run(c.e.String()+"/"+fc.name, func(t *testing.T) {
				got, err := ev.Eval(fc.file)
				if err != nil {
					t.Fatal(err)
				}
				if got != c.want[i] {
					t.Errorf("must match = %v, want %v", got, c.want[i])
				}
			})
		}
	}
}

func TestStrictMetricsNaN(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.DoubleType{}})
	someNaN := fileOf(t, 1, iceberg.DoubleType{}, nan, 1.0)
	noCounts := fileOf(t, 1, iceberg.DoubleType{}, 1.0, 2.0)
	noCounts.NaNValueCounts = nil
	cases := []struct {
		e    Expr
		file *iceberg.DataFile
		want bool
	}{
		{Lt("x", 5.0), someNaN, false},
		{Lt("x", 5.0), noCounts, false},
		{NotEq("x", 5.0), someNaN, true},
		{IsNaN("x"), fileOf(t, 1, iceberg.DoubleType{}, nan), true},
		{NotNaN("x"), fileOf(t, 1, iceberg.DoubleType{}, 1.0), true},
		{NotNaN("x"), someNaN, false},
	}
	for _, c := range cases {
		t.Run(c.e.String(), func(t *testing.T) {
			b, err := Bind(schema, c.e, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := NewStrictMetricsEvaluator(b).Eval(c.file)
			if err != nil || got != c.want {
				t.Errorf("must match = %v (%v), want %v", got, err, c.want)
			}
		})
	}
}

// A file whose record count is unknown (-1, imported) proves nothing either
// way: it may hold matching rows and need not hold only matching ones.
func TestMetricsUnknownRecordCount(t *testing.T) {
	schema := iceberg.MustSchema(0, iceberg.NestedField{ID: 1, Name: "x", Type: iceberg.LongType{}})
	unknown := &iceberg.DataFile{RecordCount: -1}
	for _, e := range []Expr{Lt("x", 30), IsNull("x"), AlwaysTrue{}} {
		t.Run(e.String(), func(t *testing.T) {
			b, err := Bind(schema, e, true)
			if err != nil {
				t.Fatal(err)
			}
			might, err := NewInclusiveMetricsEvaluator(b).Eval(unknown)
			if err != nil || !might {
				t.Errorf("inclusive = %v, %v; want true", might, err)
			}
			_, wantMust := b.(AlwaysTrue)
			must, err := NewStrictMetricsEvaluator(b).Eval(unknown)
			if err != nil || must != wantMust {
				t.Errorf("strict = %v, %v; want %v", must, err, wantMust)
			}
		})
	}
}
