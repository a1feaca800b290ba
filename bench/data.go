package bench

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Scale fixes the data: Rows events over Users users (Rows/20 unless
// set), 30 days of timestamps, about 50 countries.
type Scale struct {
	Rows  int
	Users int
}

func (s Scale) users() int {
	if s.Users > 0 {
		return s.Users
	}
	return max(s.Rows/20, 1)
}

var baseTS = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	days      = 30
	countries = 50
	batchRows = 64 * 1024
)

// The generators below are written twice, in Go (for icesql's append)
// and in SQL (for DuckDB's COPY), from the same formulas, so both engines
// write the same rows.

// tsStepMicros spreads the events evenly over the 30 days, in event_id
// order, as an ingest by time would.
func (s Scale) tsStepMicros() int64 {
	return int64(days) * 86_400_000_000 / int64(max(s.Rows, 1))
}

func userID(u int) string { return fmt.Sprintf("user-%06d", u) }

func eventUser(i int64, users int) int { return int(i * 7919 % int64(users)) }

func eventAction(i int64) string {
	switch h := (i*37 + i/11) % 10; {
	case h < 6:
		return "view"
	case h < 9:
		return "click"
	default:
		return "buy"
	}
}

func eventAmount(i int64) float64 { return float64(i*48271%100_000) / 100 }

func userCountry(u int) string { return fmt.Sprintf("country-%02d", u*31%countries) }

// duckEventsSQL is the same events table as a DuckDB query.
func (s Scale) duckEventsSQL() string {
	return fmt.Sprintf(`SELECT i AS event_id,
  'user-' || lpad(CAST((i * 7919) %% %d AS VARCHAR), 6, '0') AS user_id,
  CASE WHEN (i*37 + i//11) %% 10 < 6 THEN 'view' WHEN (i*37 + i//11) %% 10 < 9 THEN 'click' ELSE 'buy' END AS action,
  TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_microseconds(i * %d) AS event_ts,
  CAST((i * 48271) %% 100000 AS DOUBLE) / 100 AS amount
FROM range(%d) t(i)`, s.users(), s.tsStepMicros(), s.Rows)
}

var eventsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "event_id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "user_id", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "action", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "event_ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

var usersSchema = arrow.NewSchema([]arrow.Field{
	{Name: "user_id", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "country", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// genReader is an array.RecordReader over generated rows [0, n).
type genReader struct {
	schema *arrow.Schema
	n      int
	next   int
	fill   func(b *array.RecordBuilder, from, to int)
	cur    arrow.RecordBatch
}

func (r *genReader) Retain()                        {}
func (r *genReader) Release()                       { r.drop() }
func (r *genReader) Schema() *arrow.Schema          { return r.schema }
func (r *genReader) Err() error                     { return nil }
func (r *genReader) Record() arrow.RecordBatch      { return r.cur }
func (r *genReader) RecordBatch() arrow.RecordBatch { return r.cur }

func (r *genReader) drop() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *genReader) Next() bool {
	r.drop()
	if r.next >= r.n {
		return false
	}
	to := min(r.next+batchRows, r.n)
	b := array.NewRecordBuilder(memory.DefaultAllocator, r.schema)
	defer b.Release()
	r.fill(b, r.next, to)
	r.next = to
	r.cur = b.NewRecordBatch()
	return true
}

func (s Scale) eventsReader() *genReader {
	users, step := s.users(), s.tsStepMicros()
	base := baseTS.UnixMicro()
	return &genReader{schema: eventsSchema, n: s.Rows, fill: func(b *array.RecordBuilder, from, to int) {
		ids := b.Field(0).(*array.Int64Builder)
		uids := b.Field(1).(*array.StringBuilder)
		acts := b.Field(2).(*array.StringBuilder)
		tss := b.Field(3).(*array.TimestampBuilder)
		amts := b.Field(4).(*array.Float64Builder)
		buf := make([]byte, 0, 16)
		for row := from; row < to; row++ {
			i := int64(row)
			ids.Append(i)
			buf = fmt.Appendf(buf[:0], "user-%06d", eventUser(i, users))
			uids.BinaryBuilder.Append(buf)
			acts.Append(eventAction(i))
			tss.Append(arrow.Timestamp(base + i*step))
			amts.Append(eventAmount(i))
		}
	}}
}

func (s Scale) usersReader() *genReader {
	return &genReader{schema: usersSchema, n: s.users(), fill: func(b *array.RecordBuilder, from, to int) {
		uids := b.Field(0).(*array.StringBuilder)
		cs := b.Field(1).(*array.StringBuilder)
		for u := from; u < to; u++ {
			uids.Append(userID(u))
			cs.Append(userCountry(u))
		}
	}}
}
