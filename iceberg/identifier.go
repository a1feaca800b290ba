package iceberg

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameBytes bounds a table name and a namespace's directory name
// (its levels joined with dots, plus ".db"): one path component on
// common file systems.
const MaxNameBytes = 255

// CheckTableName refuses a table or view name that could not be one
// directory below its namespace's directory: empty, "." or "..", a slash,
// a backslash, a control character, invalid UTF-8, or longer than
// MaxNameBytes. Names of tables a catalog already holds are not checked
// (their locations come from their metadata, not from their names); every
// name a statement creates is.
func CheckTableName(name string) error {
	if err := checkComponent("table name", name); err != nil {
		return err
	}
	if len(name) > MaxNameBytes {
		return fmt.Errorf("%w: table name of %d bytes (at most %d)", ErrInvalidIdentifier, len(name), MaxNameBytes)
	}
	return nil
}

// CheckNamespace refuses a namespace whose levels are not each a valid
// component (see CheckTableName) without dots: the levels joined with
// dots, plus ".db", name the namespace's one directory in the warehouse,
// so that no two namespaces, and no two tables, share or nest directories.
func CheckNamespace(ns []string) error {
	if len(ns) == 0 {
		return fmt.Errorf("%w: empty namespace", ErrInvalidIdentifier)
	}
	n := len(".db") + len(ns) - 1
	for _, level := range ns {
		if err := checkComponent("namespace level", level); err != nil {
			return err
		}
		if strings.Contains(level, ".") {
			return fmt.Errorf("%w: namespace level %q contains a dot", ErrInvalidIdentifier, level)
		}
		n += len(level)
	}
	if n > MaxNameBytes {
		return fmt.Errorf("%w: namespace %q makes a directory name of %d bytes (at most %d)",
			ErrInvalidIdentifier, strings.Join(ns, "."), n, MaxNameBytes)
	}
	return nil
}

// CheckIdentifier is CheckNamespace and CheckTableName.
func CheckIdentifier(ns []string, name string) error {
	if err := CheckNamespace(ns); err != nil {
		return err
	}
	return CheckTableName(name)
}

func checkComponent(what, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%w: empty %s", ErrInvalidIdentifier, what)
	case s == "." || s == "..":
		return fmt.Errorf("%w: %s %q is a path component", ErrInvalidIdentifier, what, s)
	case strings.ContainsAny(s, `/\`):
		return fmt.Errorf("%w: %s %q contains a slash or backslash", ErrInvalidIdentifier, what, s)
	case !utf8.ValidString(s):
		return fmt.Errorf("%w: %s %q is not valid UTF-8", ErrInvalidIdentifier, what, s)
	case strings.HasSuffix(s, " "):
		// the SQL parser refuses such names (as MySQL's), so a table
		// created under one could never be named again
		return fmt.Errorf("%w: %s %q ends with a space", ErrInvalidIdentifier, what, s)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return fmt.Errorf("%w: %s %q contains a control character", ErrInvalidIdentifier, what, s)
		}
	}
	return nil
}
