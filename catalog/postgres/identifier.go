package postgres

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/icesql/icesql/catalog"
)

// Column limits of Java's DDL, which Postgres enforces (in characters).
const (
	maxNameChars     = 255  // catalog_name, table_namespace, table_name, namespace, property_key
	maxLocationChars = 1000 // metadata_location, previous_metadata_location, property_value
)

type Identifier = catalog.Identifier

func joinNamespace(ns []string) string { return strings.Join(ns, ".") }

func splitNamespace(s string) []string { return strings.Split(s, ".") }

// storable reports why s cannot be stored in a VARCHAR(limit) text column
// of a UTF-8 database ("" when it can).
func storable(s string, limit int) string {
	switch {
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	case strings.ContainsRune(s, 0):
		return "contains a NUL byte"
	case utf8.RuneCountInString(s) > limit:
		return "is longer than " + strconv.Itoa(limit) + " characters"
	}
	return ""
}

func validateNamespace(ns []string) error {
	if len(ns) == 0 {
		return wrapf(catalog.ErrInvalidIdentifier, "empty namespace")
	}
	for _, level := range ns {
		switch {
		case level == "":
			return wrapf(catalog.ErrInvalidIdentifier, "empty level in namespace %q", joinNamespace(ns))
		case strings.Contains(level, "."):
			return wrapf(catalog.ErrInvalidIdentifier, "namespace level %q contains a dot", level)
		}
	}
	if why := storable(joinNamespace(ns), maxNameChars); why != "" {
		return wrapf(catalog.ErrInvalidIdentifier, "namespace %q %s", clip(joinNamespace(ns)), why)
	}
	return nil
}

func validateIdent(id Identifier) error {
	if err := validateNamespace(id.Namespace); err != nil {
		return err
	}
	if id.Name == "" {
		return wrapf(catalog.ErrInvalidIdentifier, "empty table name in %q", id.String())
	}
	if why := storable(id.Name, maxNameChars); why != "" {
		return wrapf(catalog.ErrInvalidIdentifier, "name %q %s", clip(id.Name), why)
	}
	return nil
}

func validateLocation(loc string) error {
	if loc == "" {
		return wrapf(catalog.ErrInvalidArgument, "empty metadata location")
	}
	if why := storable(loc, maxLocationChars); why != "" {
		return wrapf(catalog.ErrInvalidArgument, "metadata location %q %s", clip(loc), why)
	}
	return nil
}

func validateProperty(k, v string) error {
	if k == "" {
		return wrapf(catalog.ErrInvalidArgument, "empty property key")
	}
	if why := storable(k, maxNameChars); why != "" {
		return wrapf(catalog.ErrInvalidArgument, "property key %q %s", clip(k), why)
	}
	if why := storable(v, maxLocationChars); why != "" {
		return wrapf(catalog.ErrInvalidArgument, "value of property %q %s", clip(k), why)
	}
	return nil
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	return strings.ToValidUTF8(s[:80], "") + "..."
}

// likeEscaper escapes LIKE's wildcards with '!', as Java's JdbcUtil does.
var likeEscaper = strings.NewReplacer("!", "!!", "_", "!_", "%", "!%")

// childPattern matches the namespaces strictly below ns (case-sensitively,
// with LIKE ... ESCAPE '!').
func childPattern(ns string) string { return likeEscaper.Replace(ns) + ".%" }
