package catalog

import (
	"net/url"
	"strings"
)

// Redacted replaces secrets in RedactURI's output.
const Redacted = "xxxxx"

// RedactURI returns uri with its password and any secret-looking query
// parameter replaced by Redacted, for errors and logs. A URI that does
// not parse loses everything before its last '@' in the authority.
func RedactURI(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		if at := strings.LastIndex(uri, "@"); at >= 0 {
			start := strings.Index(uri, "://")
			if start < 0 || start > at {
				start = -3
			}
			return uri[:start+3] + Redacted + uri[at:]
		}
		return uri
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), Redacted)
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for k := range q {
			if IsSecretKey(k) {
				q.Set(k, Redacted)
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// IsSecretKey reports whether a URI query key or a property name holds a
// secret (password, secret access key, session token, OAuth credential).
func IsSecretKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range []string{"password", "secret", "token", "credential"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}
