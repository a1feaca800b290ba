package driver_test

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icesql/icesql/driver"
)

var (
	analyticRows = flag.Int("analytic-rows", 200_000, "events rows of BenchmarkAnalytic (bench/cmd/duckcompare uses 1000000 and more)")
	analyticDir  = flag.String("analytic-dir", "", "warehouse of BenchmarkAnalytic, kept and reused when it holds -analytic-rows rows (default: a temporary one)")
)

// analyticQueries are the shapes of bench/'s DuckDB comparison that lean
// on the executor: high-cardinality string group-by, count(DISTINCT), a
// join followed by a group-by, and a row_number() filter.
var analyticQueries = []struct{ name, sql string }{
	{"groupby_action", `SELECT action, count(*), sum(amount) FROM events GROUP BY action`},
	{"count_distinct", `SELECT count(DISTINCT user_id) FROM events`},
	{"top10_users", `SELECT user_id, count(*) AS c FROM events GROUP BY user_id ORDER BY c DESC, user_id LIMIT 10`},
	{"join_country", `SELECT u.country, count(*), sum(e.amount) FROM events e JOIN users u ON e.user_id = u.user_id GROUP BY u.country`},
	{"window_rn1", `SELECT count(*), sum(amount), min(event_id), max(event_id) FROM (
  SELECT event_id, amount, row_number() OVER (PARTITION BY user_id ORDER BY event_ts) AS rn FROM events) t WHERE rn = 1`},
}

// BenchmarkAnalytic runs analyticQueries over an events table of
// -analytic-rows rows in one data file (user_id of rows/20 distinct
// values) and a users table of those users with 50 countries.
func BenchmarkAnalytic(b *testing.B) {
	db := openAnalytic(b, *analyticRows)
	defer db.Close()
	for _, q := range analyticQueries {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := db.Query(q.sql)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for rows.Next() {
					n++
				}
				if err := rows.Err(); err != nil {
					b.Fatal(err)
				}
				rows.Close()
				if n == 0 {
					b.Fatal("no rows")
				}
			}
		})
	}
}

func openAnalytic(b *testing.B, n int) *sql.DB {
	dir := *analyticDir
	if dir == "" {
		dir = b.TempDir()
	}
	db, err := sql.Open("iceberg", dir)
	if err != nil {
		b.Fatal(err)
	}
	marker := filepath.Join(dir, "analytic-rows")
	if got, err := os.ReadFile(marker); err == nil && string(got) == fmt.Sprint(n) {
		return db
	}
	for _, stmt := range []string{
		"DROP TABLE IF EXISTS events PURGE", "DROP TABLE IF EXISTS users PURGE",
		"CREATE TABLE events (event_id BIGINT, user_id STRING, action STRING, event_ts TIMESTAMP, amount DOUBLE)",
		"CREATE TABLE users (user_id STRING, country STRING)",
	} {
		if _, err := db.Exec(stmt); err != nil {
			b.Fatal(err)
		}
	}
	users := max(n/20, 1)
	ev := arrow.NewSchema([]arrow.Field{
		{Name: "event_id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "user_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "action", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "event_ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	step := int64(30*86_400_000_000) / int64(n)
	actions := []string{"view", "view", "view", "view", "view", "view", "click", "click", "click", "buy"}
	appendGen(b, db, "events", ev, n, func(bl *array.RecordBuilder, i int64) {
		bl.Field(0).(*array.Int64Builder).Append(i)
		bl.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("user-%06d", i*7919%int64(users)))
		bl.Field(2).(*array.StringBuilder).Append(actions[(i*37+i/11)%10])
		bl.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(base + i*step))
		bl.Field(4).(*array.Float64Builder).Append(float64(i*48271%100_000) / 100)
	})
	us := arrow.NewSchema([]arrow.Field{
		{Name: "user_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "country", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	appendGen(b, db, "users", us, users, func(bl *array.RecordBuilder, u int64) {
		bl.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("user-%06d", u))
		bl.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("country-%02d", u*31%50))
	})
	if err := os.WriteFile(marker, []byte(fmt.Sprint(n)), 0o644); err != nil {
		b.Fatal(err)
	}
	return db
}

// appendGen appends rows [0, n) made by row through AppendArrow, in
// batches of 64Ki rows, as one commit.
func appendGen(b *testing.B, db *sql.DB, table string, sc *arrow.Schema, n int, row func(*array.RecordBuilder, int64)) {
	var batches []arrow.RecordBatch
	for from := 0; from < n; from += 65536 {
		bl := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
		for i := from; i < min(from+65536, n); i++ {
			row(bl, int64(i))
		}
		batches = append(batches, bl.NewRecordBatch())
		bl.Release()
	}
	rdr, err := array.NewRecordReader(sc, batches)
	if err != nil {
		b.Fatal(err)
	}
	defer rdr.Release()
	for _, bt := range batches {
		bt.Release()
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Raw(func(dc any) error {
		_, err := dc.(driver.ArrowConn).AppendArrow(ctx, table, rdr)
		return err
	}); err != nil {
		b.Fatal(err)
	}
}
