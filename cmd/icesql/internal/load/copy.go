package load

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Copy is a parsed `\copy table FROM 'file' [WITH (option value, ...)]`.
type Copy struct {
	Table string // as written, e.g. ns.t or `odd name`
	File  string
	Options
}

// ParseCopy parses the arguments of \copy (the text after "\copy").
// FORMAT defaults to the file's extension (.csv, .tsv, .jsonl/.ndjson/
// .json, .parquet); HEADER defaults to true for CSV.
func ParseCopy(args string) (*Copy, error) {
	toks, err := tokenize(args)
	if err != nil {
		return nil, err
	}
	usage := fmt.Errorf("%w: want \\copy table FROM 'file' [WITH (FORMAT csv|jsonl|parquet, HEADER true|false, DELIMITER ',', NULL '', QUOTE '\"', ESCAPE '\"')]", ErrBadCommand)
	if len(toks) < 3 || !strings.EqualFold(toks[1].text, "from") || !toks[2].quoted {
		return nil, usage
	}
	c := &Copy{Table: toks[0].text, File: toks[2].text}
	header, headerSet, csvOnly := true, false, ""
	rest := toks[3:]
	if len(rest) > 0 {
		if !strings.EqualFold(rest[0].text, "with") {
			return nil, usage
		}
		rest = rest[1:]
		if len(rest) < 2 || rest[0].text != "(" || rest[len(rest)-1].text != ")" {
			return nil, usage
		}
		rest = rest[1 : len(rest)-1]
		for len(rest) > 0 {
			if len(rest) < 2 {
				return nil, fmt.Errorf("%w: option %q has no value", ErrBadCommand, rest[0].text)
			}
			name, val, valQuoted := strings.ToLower(rest[0].text), rest[1].text, rest[1].quoted
			rest = rest[2:]
			if len(rest) > 0 {
				if rest[0].text != "," {
					return nil, fmt.Errorf("%w: expected , after option %s", ErrBadCommand, name)
				}
				rest = rest[1:]
			}
			switch name {
			case "format":
				c.Format = strings.ToLower(val)
			case "header":
				switch strings.ToLower(val) {
				case "true", "on", "1":
					header = true
				case "false", "off", "0":
					header = false
				default:
					return nil, fmt.Errorf("%w: HEADER %q: want true or false", ErrBadCommand, val)
				}
				headerSet = true
			case "delimiter", "quote", "escape":
				r, err := oneChar(name, val)
				if err != nil {
					return nil, err
				}
				switch name {
				case "delimiter":
					c.Delimiter = r
				case "quote":
					c.Quote = r
				default:
					c.Escape = r
				}
				csvOnly = strings.ToUpper(name)
			case "null":
				if !valQuoted {
					return nil, fmt.Errorf("%w: NULL takes a quoted string, e.g. NULL 'NA'", ErrBadCommand)
				}
				c.Null, csvOnly = val, "NULL"
			default:
				return nil, fmt.Errorf("%w: unknown option %q (known: FORMAT, HEADER, DELIMITER, NULL, QUOTE, ESCAPE)", ErrBadCommand, name)
			}
		}
	}
	if c.Format == "" {
		switch strings.ToLower(filepath.Ext(c.File)) {
		case ".csv":
			c.Format = "csv"
		case ".tsv":
			c.Format, c.Delimiter = "csv", '\t'
		case ".jsonl", ".ndjson", ".json":
			c.Format = "jsonl"
		case ".parquet":
			c.Format = "parquet"
		default:
			return nil, fmt.Errorf("%w: cannot tell the format of %q: add WITH (FORMAT csv|jsonl|parquet)", ErrBadCommand, c.File)
		}
	}
	switch c.Format {
	case "csv", "jsonl", "parquet":
	case "json", "ndjson":
		c.Format = "jsonl"
	default:
		return nil, fmt.Errorf("%w: FORMAT %q: want csv, jsonl or parquet", ErrBadCommand, c.Format)
	}
	if headerSet && csvOnly == "" {
		csvOnly = "HEADER"
	}
	if csvOnly != "" && c.Format != "csv" {
		return nil, fmt.Errorf("%w: %s applies to CSV only", ErrBadCommand, csvOnly)
	}
	c.Header = header && c.Format == "csv"
	if c.Format == "csv" {
		if err := checkCSVOptions(c.Options.withDefaults()); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadCommand, err)
		}
	}
	return c, nil
}

// oneChar reads the single character of a DELIMITER, QUOTE or ESCAPE
// option; \t is a tab.
func oneChar(option, val string) (rune, error) {
	r, size := utf8.DecodeRuneInString(val)
	if val == `\t` {
		r, size = '\t', 2
	}
	if size != len(val) || r == utf8.RuneError || r == '\n' || r == '\r' {
		return 0, fmt.Errorf("%w: %s %q: want one character", ErrBadCommand, strings.ToUpper(option), val)
	}
	return r, nil
}

type token struct {
	text   string
	quoted bool
}

// tokenize splits words, 'quoted strings' (” escapes a quote),
// `quoted names` (kept with their quotes), and ( ) , as tokens.
func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')' || c == ',':
			out = append(out, token{text: string(c)})
			i++
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for ; ; j++ {
				if j >= len(s) {
					return nil, fmt.Errorf("%w: unterminated string", ErrBadCommand)
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j++
						continue
					}
					break
				}
				b.WriteByte(s[j])
			}
			out = append(out, token{text: b.String(), quoted: true})
			i = j + 1
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r(),'", rune(s[j])) {
				if s[j] == '`' {
					end := strings.IndexByte(s[j+1:], '`')
					if end < 0 {
						return nil, fmt.Errorf("%w: unterminated `name`", ErrBadCommand)
					}
					j += end + 1
				}
				j++
			}
			out = append(out, token{text: s[i:j]})
			i = j
		}
	}
	return out, nil
}
