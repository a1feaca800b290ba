package iceberg

import "time"

const microsPerHour = 3_600_000_000

func (YearTransform) CanTransform(src Type) bool  { return isDateOrTimestamp(src) }
func (MonthTransform) CanTransform(src Type) bool { return isDateOrTimestamp(src) }
func (DayTransform) CanTransform(src Type) bool   { return isDateOrTimestamp(src) }

func (HourTransform) CanTransform(src Type) bool {
	switch src.(type) {
	case TimestampType, TimestampTzType, TimestampNsType, TimestampTzNsType:
		return true
	}
	return false
}

func isDateOrTimestamp(t Type) bool {
	switch t.(type) {
	case DateType, TimestampType, TimestampTzType, TimestampNsType, TimestampTzNsType:
		return true
	}
	return false
}

func (YearTransform) ResultType(Type) Type  { return IntType{} }
func (MonthTransform) ResultType(Type) Type { return IntType{} }
func (DayTransform) ResultType(Type) Type   { return DateType{} }
func (HourTransform) ResultType(Type) Type  { return IntType{} }

// Apply gives years from 1970 as int32 (negative before 1970).
func (YearTransform) Apply(v any) any {
	days, ok := daysOf(v)
	if !ok {
		return nil
	}
	y, _, _ := civilFromDays(days)
	return int32(y - 1970)
}

// Apply gives months from 1970-01 as int32 (negative before 1970).
func (MonthTransform) Apply(v any) any {
	days, ok := daysOf(v)
	if !ok {
		return nil
	}
	y, m, _ := civilFromDays(days)
	return int32((y-1970)*12 + m - 1)
}

// Apply gives days from 1970-01-01 as a Date.
func (DayTransform) Apply(v any) any {
	days, ok := daysOf(v)
	if !ok {
		return nil
	}
	return Date(days)
}

// Apply gives hours from 1970-01-01T00:00 as int32 (floor before 1970).
func (HourTransform) Apply(v any) any {
	switch ts := v.(type) {
	case Timestamp:
		return int32(floorDiv(int64(ts), microsPerHour))
	case TimestampNano:
		return int32(floorDiv(int64(ts), nanosPerHour))
	}
	return nil
}

// daysOf is the day ordinal of a Date or Timestamp (floor for pre-epoch
// timestamps, so 1969-12-31T23:00 is day -1).
func daysOf(v any) (int64, bool) {
	switch x := v.(type) {
	case Date:
		return int64(x), true
	case Timestamp:
		return floorDiv(int64(x), microsPerDay), true
	case TimestampNano:
		return floorDiv(int64(x), nanosPerDay), true
	}
	return 0, false
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// civilFromDays is the proleptic Gregorian date of a day ordinal.
func civilFromDays(days int64) (year, month, day int) {
	t := time.Unix(days*86400, 0).UTC()
	return t.Year(), int(t.Month()), t.Day()
}
