package export

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultOptions are the defaults before any option: CSV gets a header
// line (as DuckDB's COPY TO and the shell's \copy FROM assume).
func DefaultOptions() Options { return Options{Header: true} }

// Set applies one option as COPY and \copy spell it: FORMAT x, HEADER
// [bool], DELIMITER 'c' (DELIM, SEP), NULL 's', OVERWRITE [bool]
// (OVERWRITE_OR_IGNORE). A boolean given no value is true.
func (o *Options) Set(name, value string, hasValue bool) error {
	name = strings.ToUpper(name)
	boolean := func() (bool, error) {
		if !hasValue {
			return true, nil
		}
		switch strings.ToLower(value) {
		case "true", "on", "1", "yes":
			return true, nil
		case "false", "off", "0", "no":
			return false, nil
		}
		return false, fmt.Errorf("%w: %s %q: want true or false", ErrOptions, name, value)
	}
	need := func() error {
		if !hasValue {
			return fmt.Errorf("%w: %s needs a value", ErrOptions, name)
		}
		return nil
	}
	var err error
	switch name {
	case "FORMAT":
		if err := need(); err != nil {
			return err
		}
		o.Format = strings.ToLower(value)
	case "HEADER":
		o.Header, err = boolean()
	case "OVERWRITE", "OVERWRITE_OR_IGNORE":
		o.Overwrite, err = boolean()
	case "DELIMITER", "DELIM", "SEP":
		if err := need(); err != nil {
			return err
		}
		if value == `\t` {
			value = "\t"
		}
		r, size := utf8.DecodeRuneInString(value)
		if size == 0 || size != len(value) || r == utf8.RuneError {
			return fmt.Errorf("%w: DELIMITER %s: want one character", ErrOptions, strconv.Quote(value))
		}
		o.Delimiter = r
	case "NULL":
		if err := need(); err != nil {
			return err
		}
		o.Null = value
	default:
		return fmt.Errorf("%w: unknown option %s (known: FORMAT, HEADER, DELIMITER, NULL, OVERWRITE)", ErrOptions, name)
	}
	return err
}

// CheckFormatOptions refuses CSV-only options on another format; call it
// after Normalize. csvOnly names the CSV options that were given.
func (o *Options) CheckFormatOptions(csvOnly []string) error {
	if o.Format != CSV && len(csvOnly) > 0 {
		return fmt.Errorf("%w: %s applies to CSV only", ErrOptions, csvOnly[0])
	}
	return nil
}

// IsCSVOnly reports whether an option name applies to CSV only.
func IsCSVOnly(name string) bool {
	switch strings.ToUpper(name) {
	case "HEADER", "DELIMITER", "DELIM", "SEP", "NULL":
		return true
	}
	return false
}
