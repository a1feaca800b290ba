package planner

import (
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icesql/icesql/sqlexec/exec"
)

// likeBatch evaluates a case-sensitive LIKE over whole string arrays,
// reading each value in place (no string or rune slice per row). The
// pattern is compiled once per distinct pattern value, so a literal
// pattern is compiled once a batch; a pattern of literal characters and
// one trailing run of % is a byte prefix test. Arguments of other array
// types go through the row function.
func likeBatch(escape rune) func(ec *exec.EvalContext, args []arrow.Array, n int) (arrow.Array, error) {
	return func(ec *exec.EvalContext, args []arrow.Array, n int) (arrow.Array, error) {
		s, ok1 := args[0].(*array.String)
		p, ok2 := args[1].(*array.String)
		if !ok1 || !ok2 {
			return exec.MapRows(ec, typeBool, n, args, func(v []any) (any, error) {
				for _, x := range v {
					if x == nil {
						return nil, nil
					}
				}
				return likeFunc(escape, false)(ec, v)
			})
		}
		b := array.NewBooleanBuilder(ec.Mem)
		defer b.Release()
		b.Reserve(n)
		var m likeMatcher
		havePattern := false
		var last string
		for i := 0; i < n; i++ {
			if s.IsNull(i) || p.IsNull(i) {
				b.AppendNull()
				continue
			}
			if pat := p.Value(i); !havePattern || pat != last {
				m, last, havePattern = compileLike(pat, escape), pat, true
			}
			b.UnsafeAppend(m.match(s.Value(i)))
		}
		return b.NewArray(), nil
	}
}

// likeMatcher is a compiled LIKE pattern.
type likeMatcher struct {
	prefix  string // set when the pattern is prefix + one run of %
	general bool   // otherwise: match pattern with likeMatchString
	pattern string
	escape  rune
}

func (m *likeMatcher) match(s string) bool {
	if m.general {
		return likeMatchString(s, m.pattern, m.escape)
	}
	return strings.HasPrefix(s, m.prefix)
}

// compileLike recognises prefix patterns; anything else matches with
// likeMatchString. A prefix compares as bytes only when it is valid
// UTF-8 without U+FFFD, so that it agrees with the rune comparison the
// general matcher (and likeMatch) make of invalid bytes in values.
func compileLike(p string, escape rune) likeMatcher {
	general := likeMatcher{general: true, pattern: p, escape: escape}
	prefix, rest, ok := LikePrefix(p, escape)
	if !ok || strings.Trim(rest, "%") != "" || rest == "" {
		return general
	}
	if !utf8.ValidString(prefix) || strings.ContainsRune(prefix, utf8.RuneError) {
		return general
	}
	return likeMatcher{prefix: prefix}
}

// LikeBytePrefix reports whether the LIKE pattern p (escape escape)
// matches exactly the strings that start with prefix, byte for byte:
// literal text then one run of %, as the evaluator's prefix test
// (compileLike) decides.
func LikeBytePrefix(p string, escape rune) (prefix string, ok bool) {
	m := compileLike(p, escape)
	return m.prefix, !m.general
}

// LikePrefix splits a LIKE pattern into the literal text before its first
// wildcard (escapes resolved) and the rest from that wildcard on; ok is
// false when an escape character ends the pattern, which is then matched
// literally and not split here.
func LikePrefix(p string, escape rune) (prefix, rest string, ok bool) {
	var sb strings.Builder
	for i := 0; i < len(p); {
		r, w := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == escape:
			if i+w >= len(p) {
				return "", "", false
			}
			r2, w2 := utf8.DecodeRuneInString(p[i+w:])
			sb.WriteRune(r2)
			i += w + w2
		case r == '%' || r == '_':
			return sb.String(), p[i:], true
		default:
			sb.WriteString(p[i : i+w])
			i += w
		}
	}
	return sb.String(), "", true
}

// likeMatchString is likeMatch over strings, decoding runes in place.
func likeMatchString(s, p string, escape rune) bool {
	for len(p) > 0 {
		c, w := utf8.DecodeRuneInString(p)
		switch {
		case c == escape && len(p) > w:
			c2, w2 := utf8.DecodeRuneInString(p[w:])
			r, ws := utf8.DecodeRuneInString(s)
			if len(s) == 0 || r != c2 {
				return false
			}
			s, p = s[ws:], p[w+w2:]
		case c == '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for i := 0; ; {
				if likeMatchString(s[i:], p, escape) {
					return true
				}
				if i >= len(s) {
					return false
				}
				_, ws := utf8.DecodeRuneInString(s[i:])
				i += ws
			}
		case c == '_':
			if len(s) == 0 {
				return false
			}
			_, ws := utf8.DecodeRuneInString(s)
			s, p = s[ws:], p[w:]
		default:
			r, ws := utf8.DecodeRuneInString(s)
			if len(s) == 0 || r != c {
				return false
			}
			s, p = s[ws:], p[w:]
		}
	}
	return len(s) == 0
}
