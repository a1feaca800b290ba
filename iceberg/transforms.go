package iceberg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The transforms are comparable values, so two transforms are the same
// exactly when they are == (BucketTransform{16} == BucketTransform{16}).
type (
	// IdentityTransform passes the source value through.
	IdentityTransform struct{}
	// BucketTransform hashes into N buckets (spec Appendix B).
	BucketTransform struct{ N int }
	// TruncateTransform cuts to width W (numbers) or length W (strings by
	// code point, binary by byte).
	TruncateTransform struct{ W int }
	// YearTransform is years from 1970 (int).
	YearTransform struct{}
	// MonthTransform is months from 1970-01 (int).
	MonthTransform struct{}
	// DayTransform is days from 1970-01-01 (date).
	DayTransform struct{}
	// HourTransform is hours from 1970-01-01T00:00 (int).
	HourTransform struct{}
	// VoidTransform always yields null; it replaces dropped fields in v1.
	VoidTransform struct{}
	// UnknownTransform is a transform this package does not implement, kept
	// so metadata written by newer engines can be read and rewritten. It
	// applies to nothing: readers ignore it when filtering and writers must
	// refuse to write data with it.
	UnknownTransform struct{ Name string }
)

// ParseTransform parses a transform name as written in metadata
// ("identity", "bucket[16]", "truncate[4]", "year", "month", "day",
// "hour", "void"), case-insensitively.
func ParseTransform(s string) (Transform, error) {
	lower := strings.ToLower(strings.TrimSpace(s))
	switch lower {
	case "identity":
		return IdentityTransform{}, nil
	case "year":
		return YearTransform{}, nil
	case "month":
		return MonthTransform{}, nil
	case "day":
		return DayTransform{}, nil
	case "hour":
		return HourTransform{}, nil
	case "void":
		return VoidTransform{}, nil
	}
	name, arg, ok := strings.Cut(lower, "[")
	if !ok || !strings.HasSuffix(arg, "]") || (name != "bucket" && name != "truncate") {
		return nil, fmt.Errorf("%w: unknown transform %q", ErrInvalidTransform, s)
	}
	digits := strings.TrimSuffix(arg, "]")
	n, err := strconv.Atoi(digits)
	if err != nil || n <= 0 || n > math.MaxInt32 || digits != strconv.Itoa(n) {
		return nil, fmt.Errorf("%w: %q needs a positive integer argument", ErrInvalidTransform, s)
	}
	if name == "bucket" {
		return BucketTransform{N: n}, nil
	}
	return TruncateTransform{W: n}, nil
}

// PreservesOrder reports whether a <= b implies t(a) <= t(b), i.e. whether
// range predicates on the source can be projected onto partition values
// (identity, truncate and the date/time transforms). Bucket, void and
// unknown transforms only support (at most) equality projection.
func PreservesOrder(t Transform) bool {
	switch t.(type) {
	case IdentityTransform, TruncateTransform, YearTransform, MonthTransform, DayTransform, HourTransform:
		return true
	}
	return false
}

// IsTimeTransform reports whether t is year, month, day or hour; a spec may
// hold at most one of them per source column.
func IsTimeTransform(t Transform) bool {
	switch t.(type) {
	case YearTransform, MonthTransform, DayTransform, HourTransform:
		return true
	}
	return false
}

// ApplyTransform validates v against the source type and applies t: the
// error-reporting form of t.Apply for values that come from users.
func ApplyTransform(t Transform, src Type, v any) (any, error) {
	if !t.CanTransform(src) {
		return nil, fmt.Errorf("%w: %s cannot transform %s", ErrInvalidTransform, t, src)
	}
	if err := ValidateValue(src, v); err != nil {
		return nil, err
	}
	return t.Apply(v), nil
}

func (IdentityTransform) String() string   { return "identity" }
func (t BucketTransform) String() string   { return fmt.Sprintf("bucket[%d]", t.N) }
func (t TruncateTransform) String() string { return fmt.Sprintf("truncate[%d]", t.W) }
func (YearTransform) String() string       { return "year" }
func (MonthTransform) String() string      { return "month" }
func (DayTransform) String() string        { return "day" }
func (HourTransform) String() string       { return "hour" }
func (VoidTransform) String() string       { return "void" }
func (t UnknownTransform) String() string  { return t.Name }

func (IdentityTransform) CanTransform(src Type) bool {
	if _, unknown := src.(UnknownType); unknown {
		// always null: nothing to partition by, and no Avro form
		return false
	}
	_, ok := src.(PrimitiveType)
	return ok
}

func (VoidTransform) CanTransform(Type) bool    { return true }
func (UnknownTransform) CanTransform(Type) bool { return false }

func (IdentityTransform) ResultType(src Type) Type { return src }
func (VoidTransform) ResultType(src Type) Type     { return src }

// ResultType is string, as Java reports for transforms it cannot apply.
func (UnknownTransform) ResultType(Type) Type { return StringType{} }

func (IdentityTransform) Apply(v any) any { return v }
func (VoidTransform) Apply(any) any       { return nil }
func (UnknownTransform) Apply(any) any    { return nil }
