package load

import (
	"fmt"
	"strings"

	"github.com/icesql/icesql/iceberg"
)

// typeParser reads the nested type names DESCRIBE prints:
// array<T>, map<K, V> and struct<name: T, ...>. Field ids are left 0:
// the loader matches columns by position and name, not by id.
type typeParser struct {
	s   string
	pos int
}

func parseNestedType(s string) (iceberg.Type, error) {
	p := &typeParser{s: s}
	t, err := p.typ()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.s) {
		return nil, p.fail("unexpected text")
	}
	return t, nil
}

func (p *typeParser) fail(msg string) error {
	return fmt.Errorf("%w: %q: %s at offset %d", ErrUnsupportedType, p.s, msg, p.pos)
}

func (p *typeParser) space() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *typeParser) expect(c byte) error {
	p.space()
	if p.pos >= len(p.s) || p.s[p.pos] != c {
		return p.fail(fmt.Sprintf("want %q", c))
	}
	p.pos++
	return nil
}

// word reads a name, or a `quoted name`.
func (p *typeParser) word() (string, error) {
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == '`' {
		end := strings.IndexByte(p.s[p.pos+1:], '`')
		if end < 0 {
			return "", p.fail("unterminated `name`")
		}
		w := p.s[p.pos+1 : p.pos+1+end]
		p.pos += end + 2
		return w, nil
	}
	start := p.pos
	for p.pos < len(p.s) && !strings.ContainsRune(" <>,:()", rune(p.s[p.pos])) {
		p.pos++
	}
	if start == p.pos {
		return "", p.fail("want a name")
	}
	return p.s[start:p.pos], nil
}

func (p *typeParser) typ() (iceberg.Type, error) {
	name, err := p.word()
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(name) {
	case "array":
		if err := p.expect('<'); err != nil {
			return nil, err
		}
		elem, err := p.typ()
		if err != nil {
			return nil, err
		}
		return &iceberg.ListType{Element: elem}, p.expect('>')
	case "map":
		if err := p.expect('<'); err != nil {
			return nil, err
		}
		key, err := p.typ()
		if err != nil {
			return nil, err
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
		val, err := p.typ()
		if err != nil {
			return nil, err
		}
		return &iceberg.MapType{Key: key, Value: val}, p.expect('>')
	case "struct":
		if err := p.expect('<'); err != nil {
			return nil, err
		}
		st := &iceberg.StructType{}
		for {
			fname, err := p.word()
			if err != nil {
				return nil, err
			}
			if err := p.expect(':'); err != nil {
				return nil, err
			}
			ft, err := p.typ()
			if err != nil {
				return nil, err
			}
			st.FieldList = append(st.FieldList, iceberg.NestedField{Name: fname, Type: ft})
			p.space()
			if p.pos < len(p.s) && p.s[p.pos] == ',' {
				p.pos++
				continue
			}
			return st, p.expect('>')
		}
	}
	// A primitive, with its (arguments) if any.
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == '(' {
		end := strings.IndexByte(p.s[p.pos:], ')')
		if end < 0 {
			return nil, p.fail("unclosed (")
		}
		name += p.s[p.pos : p.pos+end+1]
		p.pos += end + 1
	}
	return parsePrimitive(name)
}
