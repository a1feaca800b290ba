package load

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Copy is a parsed \copy: `\copy table FROM file [options]`, or
// `\copy (query) TO file [options]` / `\copy table TO file [options]`.
// The file is a 'quoted string' or, as psql allows, a bare word; options
// are [WITH] (name [value], ...) or psql's older list after the file
// (CSV HEADER DELIMITER ','). An option written without a value is a
// boolean set to true.
type Copy struct {
	Table string // as written, e.g. ns.t or `odd name`; "" for a query
	Query string // the query of \copy (query) TO
	To    bool   // TO a file rather than FROM one
	File  string
	// Options are the load options of FROM, defaults filled in.
	Options
	// Raw are the options as written, for TO.
	Raw []RawOption
}

// RawOption is one option as written, its name upper-cased.
type RawOption struct {
	Name, Value      string
	HasValue, Quoted bool
}

const copyUsage = "want \\copy table FROM 'file' [WITH (FORMAT csv|jsonl|parquet, HEADER [true|false], DELIMITER ',', NULL '', QUOTE '\"', ESCAPE '\"')] or \\copy (query) TO 'file' [WITH (FORMAT csv|json|parquet, HEADER [true|false], DELIMITER ',', NULL '')]"

// ParseCopy parses the arguments of \copy (the text after "\copy").
// FORMAT defaults to the file's extension (.csv, .tsv, .jsonl/.ndjson/
// .json, .parquet); HEADER defaults to true for CSV.
func ParseCopy(args string) (*Copy, error) {
	usage := fmt.Errorf("%w: %s", ErrBadCommand, copyUsage)
	c := &Copy{}
	args = strings.TrimSpace(args)
	if strings.HasPrefix(args, "(") {
		end, err := matchingParen(args)
		if err != nil {
			return nil, err
		}
		c.Query = strings.TrimSpace(args[1:end])
		if c.Query == "" {
			return nil, usage
		}
		args = args[end+1:]
	}
	toks, err := tokenize(args)
	if err != nil {
		return nil, err
	}
	if c.Query == "" {
		if len(toks) == 0 || toks[0].quoted {
			return nil, usage
		}
		c.Table, toks = toks[0].text, toks[1:]
	}
	if len(toks) < 2 || toks[1].text == "(" || toks[1].text == ")" || toks[1].text == "," {
		return nil, usage
	}
	switch strings.ToLower(toks[0].text) {
	case "from":
		if c.Query != "" {
			return nil, fmt.Errorf("%w: \\copy (query) writes TO a file; load FROM a file into a table", ErrBadCommand)
		}
	case "to":
		c.To = true
	default:
		return nil, usage
	}
	c.File = toks[1].text
	raw, err := parseOptions(toks[2:])
	if err != nil {
		return nil, err
	}
	c.Raw = raw
	if c.To {
		return c, nil
	}
	if err := c.loadOptions(); err != nil {
		return nil, err
	}
	return c, nil
}

// matchingParen finds the ) closing the ( at s[0], skipping quoted text.
func matchingParen(s string) (int, error) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i, nil
			}
		case '\'', '"', '`':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return 0, fmt.Errorf("%w: unterminated %c", ErrBadCommand, c)
			}
			i += j + 1
		}
	}
	return 0, fmt.Errorf("%w: no ) closes the query", ErrBadCommand)
}

// parseOptions reads [WITH] (name [value], ...) or the older bare list.
func parseOptions(toks []token) ([]RawOption, error) {
	if len(toks) > 0 && !toks[0].quoted && strings.EqualFold(toks[0].text, "with") {
		toks = toks[1:]
	}
	var out []RawOption
	if len(toks) > 0 && toks[0].text == "(" && !toks[0].quoted {
		if toks[len(toks)-1].text != ")" || toks[len(toks)-1].quoted {
			return nil, fmt.Errorf("%w: no ) closes the options", ErrBadCommand)
		}
		rest := toks[1 : len(toks)-1]
		for len(rest) > 0 {
			if rest[0].quoted || rest[0].text == "," || rest[0].text == "(" || rest[0].text == ")" {
				return nil, fmt.Errorf("%w: expected an option name, found %q", ErrBadCommand, rest[0].text)
			}
			o := RawOption{Name: strings.ToUpper(rest[0].text)}
			rest = rest[1:]
			if len(rest) > 0 && rest[0].text != "," || len(rest) > 0 && rest[0].quoted {
				o.Value, o.HasValue, o.Quoted = rest[0].text, true, rest[0].quoted
				rest = rest[1:]
			}
			out = append(out, o)
			if len(rest) > 0 {
				if rest[0].text != "," || rest[0].quoted {
					return nil, fmt.Errorf("%w: expected , after option %s", ErrBadCommand, o.Name)
				}
				rest = rest[1:]
				if len(rest) == 0 {
					return nil, fmt.Errorf("%w: an option must follow ,", ErrBadCommand)
				}
			}
		}
		return out, nil
	}
	for len(toks) > 0 {
		t := toks[0]
		toks = toks[1:]
		if t.quoted || t.text == "(" || t.text == ")" || t.text == "," {
			return nil, fmt.Errorf("%w: expected an option name, found %q", ErrBadCommand, t.text)
		}
		o := RawOption{Name: strings.ToUpper(t.text)}
		switch o.Name {
		case "CSV", "JSON", "JSONL", "NDJSON", "PARQUET":
			o = RawOption{Name: "FORMAT", Value: strings.ToLower(t.text), HasValue: true}
		case "HEADER", "OVERWRITE", "BINARY":
		default:
			if len(toks) == 0 {
				return nil, fmt.Errorf("%w: option %s has no value", ErrBadCommand, o.Name)
			}
			o.Value, o.HasValue, o.Quoted = toks[0].text, true, toks[0].quoted
			toks = toks[1:]
		}
		out = append(out, o)
	}
	return out, nil
}

// loadOptions turns Raw into the load Options of a FROM.
func (c *Copy) loadOptions() error {
	header, headerSet, csvOnly := true, false, ""
	for _, o := range c.Raw {
		name, val := strings.ToLower(o.Name), o.Value
		if !o.HasValue && name != "header" {
			return fmt.Errorf("%w: option %q has no value", ErrBadCommand, o.Name)
		}
		switch name {
		case "format":
			c.Format = strings.ToLower(val)
		case "header":
			switch strings.ToLower(val) {
			case "true", "on", "1":
				header = true
			case "":
				if o.HasValue {
					return fmt.Errorf("%w: HEADER %q: want true or false", ErrBadCommand, val)
				}
				header = true
			case "false", "off", "0":
				header = false
			default:
				return fmt.Errorf("%w: HEADER %q: want true or false", ErrBadCommand, val)
			}
			headerSet = true
		case "delimiter", "quote", "escape":
			r, err := oneChar(name, val)
			if err != nil {
				return err
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
			if !o.Quoted {
				return fmt.Errorf("%w: NULL takes a quoted string, e.g. NULL 'NA'", ErrBadCommand)
			}
			c.Null, csvOnly = val, "NULL"
		default:
			return fmt.Errorf("%w: unknown option %q (known: FORMAT, HEADER, DELIMITER, NULL, QUOTE, ESCAPE)", ErrBadCommand, name)
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
			return fmt.Errorf("%w: cannot tell the format of %q: add WITH (FORMAT csv|jsonl|parquet)", ErrBadCommand, c.File)
		}
	}
	switch c.Format {
	case "csv", "jsonl", "parquet":
	case "json", "ndjson":
		c.Format = "jsonl"
	default:
		return fmt.Errorf("%w: FORMAT %q: want csv, jsonl or parquet", ErrBadCommand, c.Format)
	}
	if headerSet && csvOnly == "" {
		csvOnly = "HEADER"
	}
	if csvOnly != "" && c.Format != "csv" {
		return fmt.Errorf("%w: %s applies to CSV only", ErrBadCommand, csvOnly)
	}
	c.Header = header && c.Format == "csv"
	if c.Format == "csv" {
		if err := checkCSVOptions(c.Options.withDefaults()); err != nil {
			return fmt.Errorf("%w: %w", ErrBadCommand, err)
		}
	}
	return nil
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
