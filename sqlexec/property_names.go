package sqlexec

import (
	"fmt"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/planner"
)

// PropertyNameError refuses a property name that is one or two
// keystrokes from a name the engine knows: any other name is kept (as
// Spark and Java keep properties they do not know), but a near miss
// would silently change nothing.
type PropertyNameError struct {
	Session    bool // a SET session property, else a table property
	Key        string
	Suggestion string
}

func (e *PropertyNameError) Error() string {
	kind := "table property"
	if e.Session {
		kind = "session property"
	}
	return fmt.Sprintf("%v: unknown %s %q; did you mean %q?", e.Unwrap(), kind, e.Key, e.Suggestion)
}

// Unwrap is ErrInvalidSessionProperty for SET, ErrInvalidStatement for
// table properties.
func (e *PropertyNameError) Unwrap() error {
	if e.Session {
		return ErrInvalidSessionProperty
	}
	return ErrInvalidStatement
}

// sessionProperties are the SET names with a meaning here.
var sessionProperties = []string{PropWAPID, PropWAPBranch}

func checkSessionPropertyName(key string) error {
	for _, k := range sessionProperties {
		if k == key {
			return nil
		}
	}
	if s := planner.Suggest(key, sessionProperties); s != "" {
		return &PropertyNameError{Session: true, Key: key, Suggestion: s}
	}
	return nil
}

// checkTablePropertyNames refuses near misses of Java's table property
// names in CREATE TABLE and ALTER TABLE ... SET TBLPROPERTIES.
func checkTablePropertyNames(props map[string]string) error {
	for k := range props {
		if iceberg.IsKnownTableProperty(k) {
			continue
		}
		if s := planner.Suggest(k, iceberg.KnownTableProperties); s != "" {
			return &PropertyNameError{Key: k, Suggestion: s}
		}
	}
	return nil
}
