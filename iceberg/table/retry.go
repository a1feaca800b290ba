package table

import (
	"math/rand/v2"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// retryPolicy is commit.retry.* of a table, as Java's Tasks applies it:
// attempts = retries + 1; the wait before attempt k+1 is
// min(minWait * 2^(k-1), maxWait) plus up to 10% jitter; no new attempt
// starts once totalTimeout has passed since the first.
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
	wait := p.minWait
	for i := 2; i < next && wait < p.maxWait; i++ {
		wait *= 2
	}
	if wait > p.maxWait {
		wait = p.maxWait
	}
	jitter := max(int64(wait/10), int64(time.Millisecond))
	return wait + time.Duration(rand.Int64N(jitter))
}

// mayRetry reports whether attempt number next may start.
func (p retryPolicy) mayRetry(next int, started time.Time) bool {
	if next > p.retries+1 {
		return false
	}
	return next <= 2 || time.Since(started) <= p.totalTimeout
}
