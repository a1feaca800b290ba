package table

import (
	"math/rand/v2"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// retryPolicy is commit.retry.* of a table: attempts = retries + 1, as
// Java's Tasks counts them; no new attempt starts once totalTimeout has
// passed since the first. The wait before the k-th retry is drawn
// uniformly from [minWait, min(minWait * 2^k, maxWait)] ("full jitter")
// rather than Java's fixed wait plus 10%: writers that lost the same race
// then come back at different times instead of colliding again.
type retryPolicy struct {
	retries      int
	minWait      time.Duration
	maxWait      time.Duration
	totalTimeout time.Duration
}

func retryPolicyOf(m *iceberg.TableMetadata) retryPolicy {
	ms := func(key string, def int64) time.Duration {
		return time.Duration(m.PropertyInt(key, def)) * time.Millisecond
	}
	p := retryPolicy{
		retries:      int(m.PropertyInt(iceberg.PropCommitNumRetries, iceberg.DefaultCommitNumRetries)),
		minWait:      ms(iceberg.PropCommitMinRetryWaitMs, iceberg.DefaultCommitMinRetryWaitMs),
		maxWait:      ms(iceberg.PropCommitMaxRetryWaitMs, iceberg.DefaultCommitMaxRetryWaitMs),
		totalTimeout: ms(iceberg.PropCommitTotalRetryTimeMs, iceberg.DefaultCommitTotalRetryTimeMs),
	}
	if p.retries < 0 {
		p.retries = 0
	}
	if p.minWait < 0 {
		p.minWait = 0
	}
	if p.maxWait < p.minWait {
		p.maxWait = p.minWait
	}
	return p
}

// backoff is the wait before attempt number next (2 for the first retry).
func (p retryPolicy) backoff(next int) time.Duration {
	upper := p.minWait
	for i := 1; i < next && upper < p.maxWait; i++ {
		upper *= 2
	}
	upper = min(upper, p.maxWait)
	return p.minWait + time.Duration(rand.Int64N(max(int64(upper-p.minWait), int64(time.Millisecond))))
}

// mayRetry reports whether attempt number next may start.
func (p retryPolicy) mayRetry(next int, started time.Time) bool {
	if next > p.retries+1 {
		return false
	}
	return next <= 2 || time.Since(started) <= p.totalTimeout
}
