package expr

import (
	"errors"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
)

func TestBindString(t *testing.T) {
	ts := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		in   Expr
		want string
	}{
		{"timestamp from time.Time", GtEq("event_ts", ts), "event_ts >= 2026-09-01T00:00:00"},
		{"timestamp from string", Lt("event_ts", "2026-09-01 10:00:00.5"), "event_ts < 2026-09-01T10:00:00.500000"},
		{"timestamptz prints offset", Eq("tstz", "2026-09-01T02:00:00+02:00"), "tstz = 2026-09-01T00:00:00+00:00"},
		{"date from string", Eq("d", "2026-09-01"), "d = 2026-09-01"},
		{"int literal to long", Eq("id", 5), "id = 5"},
		{"string quoted", Eq("s", "it's"), "s = 'it''s'"},
		{"decimal rescaled", Eq("amount", "1.5"), "amount = 1.50"},
		{"nested struct field", Eq("loc.city", "Oslo"), "loc.city = 'Oslo'"},
		{"in dedupes", In("n", 1, 2, 1), "n IN (1, 2)"},
		{"in of one is eq", In("n", 7, 7), "n = 7"},
		{"not in of one is not eq", NotIn("n", 7), "n != 7"},
		{"in drops out of range", In("n", 1, int64(1)<<40), "n = 1"},
		{"in all out of range", In("n", int64(1)<<40), "FALSE"},
		{"not in all out of range", NotIn("n", int64(1)<<40), "TRUE"},
		{"lt above int max", Lt("n", int64(1)<<40), "TRUE"},
		{"gt above int max", Gt("n", int64(1)<<40), "FALSE"},
		{"eq below int min", Eq("n", -(int64(1) << 40)), "FALSE"},
		{"gteq below int min", GtEq("n", -(int64(1) << 40)), "TRUE"},
		{"not eq below min", NotEq("n", -(int64(1) << 40)), "TRUE"},
		{"nanoseconds: lt becomes lteq", Lt("event_ts", ts.Add(500)), "event_ts <= 2026-09-01T00:00:00"},
		{"nanoseconds: gteq becomes gt", GtEq("event_ts", ts.Add(500)), "event_ts > 2026-09-01T00:00:00"},
		{"nanoseconds: eq is false", Eq("event_ts", ts.Add(500)), "FALSE"},
		{"decimal extra digits floor", Gt("amount", "1.005"), "amount > 1.00"},
		{"timestamp literal on date floors", Lt("d", iceberg.Timestamp(86_400_000_000+1)), "d <= 1970-01-02"},
		{"is null on required", IsNull("id"), "FALSE"},
		{"not null on required", NotNull("id"), "TRUE"},
		{"not pushed down", Not(And(Eq("n", 1), Lt("s", "b"))), "n != 1 OR s >= 'b'"},
		{"double not", Not(Not(IsNull("s"))), "s IS NULL"},
		{"not of or", Not(Or(IsNull("s"), StartsWith("s", "x"))), "s IS NOT NULL AND s NOT STARTS WITH 'x'"},
		{"not in", Not(In("n", 1, 2)), "n NOT IN (1, 2)"},
		{"mixed parenthesised", And(Or(Eq("n", 1), Eq("n", 2)), NotNaN("f")), "(n = 1 OR n = 2) AND f IS NOT NAN"},
		{"constants fold", And(True(), Or(False(), Eq("n", 1))), "n = 1"},
		{"case sensitive exact", Eq("s", "a"), "s = 'a'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustBind(t, c.in).String()
			if got != c.want {
				t.Errorf("Bind(%s) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestBindErrors(t *testing.T) {
	cases := []struct {
		name string
		in   Expr
		want error
	}{
		{"unknown column", Eq("nope", 1), iceberg.ErrNoSuchField},
		{"wrong case when sensitive", Eq("ID", 1), iceberg.ErrNoSuchField},
		{"string to long", Eq("id", "abc"), ErrInvalidLiteral},
		{"bad date", Eq("d", "2026-13-01"), ErrInvalidLiteral},
		{"offset on timestamp", Eq("event_ts", "2026-09-01T00:00:00+02:00"), ErrInvalidLiteral},
		{"float to int", Eq("n", 1.5), ErrInvalidLiteral},
		{"nan literal", Eq("f", nan), ErrInvalidLiteral},
		{"null literal", Eq("s", nil), ErrInvalidLiteral},
		{"isnan on int", IsNaN("n"), ErrInvalidPredicate},
		{"starts with on long", StartsWith("id", "1"), ErrInvalidPredicate},
		{"list column", IsNull("tags"), ErrInvalidPredicate},
		{"list element", Eq("tags.element", "a"), ErrInvalidPredicate},
		{"struct column", IsNull("loc"), ErrInvalidPredicate},
		{"two literals for eq", &Predicate{Op: OpEq, Column: "n", Literals: []any{1, 2}}, ErrInvalidPredicate},
		{"bad op", &Predicate{Op: Op(99), Column: "n"}, ErrInvalidPredicate},
		{"bad uuid-ish decimal", Eq("amount", "1.2.3"), ErrInvalidLiteral},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Bind(testSchema, c.in, true)
			if !errors.Is(err, c.want) {
				t.Fatalf("Bind(%s) error = %v, want %v", c.in, err, c.want)
			}
			if !errors.Is(err, iceberg.ErrInvalidExpression) && !errors.Is(err, iceberg.ErrNoSuchField) {
				t.Errorf("error %v does not wrap a root sentinel", err)
			}
			var be *BindError
			if !errors.As(err, &be) || be.Column == "" {
				t.Errorf("error %v is not a *BindError naming the column", err)
			}
		})
	}
}

func TestBindCaseInsensitive(t *testing.T) {
	b, err := Bind(testSchema, Eq("EVENT_TS", "2026-09-01"), false)
	if err != nil {
		t.Fatal(err)
	}
	p := b.(*BoundPredicate)
	if p.FieldID != 5 || p.Literal() != iceberg.Timestamp(1788220800000000) {
		t.Errorf("bound %+v", p)
	}
}
