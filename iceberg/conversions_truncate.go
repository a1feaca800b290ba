package iceberg

import "unicode/utf8"

// Column bounds of strings and binaries are cut short (Java's default
// metrics mode is truncate(16)). A lower bound is just the prefix; an upper
// bound must stay at or above every value, so its last unit is incremented.

// TruncateLowerBound cuts a string to n code points or a []byte to n bytes;
// other values are returned unchanged.
func TruncateLowerBound(v any, n int) any {
	switch x := v.(type) {
	case string:
		return truncateString(x, n)
	case []byte:
		if len(x) > n {
			return append([]byte(nil), x[:n]...)
		}
	}
	return v
}

// TruncateUpperBound returns a value of at most n code points (strings) or n
// bytes ([]byte) that is >= v. ok is false when no such value exists (every
// kept unit is already at its maximum): the column then has no upper bound.
// Other values are returned unchanged.
func TruncateUpperBound(v any, n int) (bound any, ok bool) {
	switch x := v.(type) {
	case string:
		return truncateStringMax(x, n)
	case []byte:
		return truncateBinaryMax(x, n)
	}
	return v, true
}

func truncateString(s string, n int) string {
	if n <= 0 {
		return ""
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

func truncateStringMax(s string, n int) (any, bool) {
	prefix := truncateString(s, n)
	if len(prefix) == len(s) {
		return s, true
	}
	runes := []rune(prefix)
	for i := len(runes) - 1; i >= 0; i-- {
		if next, ok := nextCodePoint(runes[i]); ok {
			runes[i] = next
			return string(runes[:i+1]), true
		}
	}
	return nil, false
}

// nextCodePoint is the next valid Unicode scalar value, skipping surrogates.
func nextCodePoint(r rune) (rune, bool) {
	switch {
	case r >= utf8.MaxRune:
		return 0, false
	case r+1 == 0xD800:
		return 0xE000, true
	}
	return r + 1, true
}

func truncateBinaryMax(b []byte, n int) (any, bool) {
	if len(b) <= n {
		return b, true
	}
	out := append([]byte(nil), b[:n]...)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i] != 0xff {
			out[i]++
			return out[:i+1], true
		}
	}
	return nil, false
}
