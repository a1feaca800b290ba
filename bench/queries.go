package bench

import (
	"fmt"
	"strings"
)

// Query is one benchmark query; the same text runs on both engines.
type Query struct {
	Name    string
	SQL     string
	Ordered bool // the result's row order is part of its checksum
}

// likePrefix picks a user_id prefix matching about 2% of the users
// ('user-12%' at 500k users).
func (s Scale) likePrefix() string {
	u := s.users()
	digits := 6
	for digits > 1 && pow10(digits) > u/50 {
		digits--
	}
	keep := 6 - digits
	v := (u * 6 / 25) / pow10(digits)
	return fmt.Sprintf("user-%0*d", keep, v)
}

func pow10(n int) int {
	p := 1
	for range n {
		p *= 10
	}
	return p
}

// Queries is the query list over the events and users tables.
func (s Scale) Queries() []Query {
	day := baseTS.AddDate(0, 0, 14)
	return []Query{
		{Name: "groupby_action", SQL: `SELECT action, count(*), sum(amount) FROM events GROUP BY action`},
		{Name: "count_distinct", SQL: `SELECT count(DISTINCT user_id) FROM events`},
		{Name: "one_day_sum", SQL: fmt.Sprintf(`SELECT count(*), sum(amount) FROM events WHERE event_ts >= TIMESTAMP '%s' AND event_ts < TIMESTAMP '%s'`,
			day.Format("2006-01-02 15:04:05"), day.AddDate(0, 0, 1).Format("2006-01-02 15:04:05"))},
		{Name: "point_lookup", SQL: fmt.Sprintf(`SELECT event_id, user_id, action, event_ts, amount FROM events WHERE event_id = %d`, s.Rows*3/7+17)},
		{Name: "count_star", SQL: `SELECT count(*) FROM events`},
		{Name: "min_max_ts", SQL: `SELECT min(event_ts), max(event_ts) FROM events`},
		{Name: "top10_amount", SQL: `SELECT event_id, amount FROM events ORDER BY amount DESC, event_id LIMIT 10`, Ordered: true},
		{Name: "top10_users", SQL: `SELECT user_id, count(*) AS c FROM events GROUP BY user_id ORDER BY c DESC, user_id LIMIT 10`, Ordered: true},
		{Name: "join_country", SQL: `SELECT u.country, count(*), sum(e.amount) FROM events e JOIN users u ON e.user_id = u.user_id GROUP BY u.country`},
		{Name: "window_rn1", SQL: `SELECT count(*), sum(amount), min(event_id), max(event_id) FROM (
  SELECT event_id, amount, row_number() OVER (PARTITION BY user_id ORDER BY event_ts) AS rn FROM events) t WHERE rn = 1`},
		{Name: "like_prefix", SQL: fmt.Sprintf(`SELECT count(*), sum(amount) FROM events WHERE user_id LIKE '%s%%'`, s.likePrefix())},
	}
}

// Select keeps the queries whose names contain one of the comma-separated
// words of filter (all when filter is empty).
func Select(qs []Query, filter string) []Query {
	if filter == "" {
		return qs
	}
	var out []Query
	for _, q := range qs {
		for _, w := range strings.Split(filter, ",") {
			if w != "" && strings.Contains(q.Name, w) {
				out = append(out, q)
				break
			}
		}
	}
	return out
}
