package sqlite

import (
	"strings"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
)

// Identifier names a table: its namespace levels and its name.
type Identifier = catalog.Identifier

// ParseIdentifier splits "a.b.t" into namespace [a b] and name t. At least
// one namespace level is required and no part may be empty; quoting is not
// supported, so names containing dots cannot be written this way.
func ParseIdentifier(s string) (Identifier, error) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return Identifier{}, wrapf(ErrInvalidIdentifier, "%q has no namespace (want namespace.table)", s)
	}
	id := Identifier{Namespace: parts[:len(parts)-1], Name: parts[len(parts)-1]}
	if err := validateIdent(id); err != nil {
		return Identifier{}, err
	}
	return id, nil
}

// ParseNamespace splits "a.b" into [a b].
func ParseNamespace(s string) ([]string, error) {
	ns := strings.Split(s, ".")
	if err := validateNamespace(ns); err != nil {
		return nil, err
	}
	return ns, nil
}

func validateIdent(id Identifier) error {
	if err := validateNamespace(id.Namespace); err != nil {
		return err
	}
	if id.Name == "" {
		return wrapf(ErrInvalidIdentifier, "empty table name in %q", id.String())
	}
	if strings.ContainsRune(id.Name, 0) {
		return wrapf(ErrInvalidIdentifier, "table name %q contains a NUL byte", id.Name)
	}
	return nil
}

// validateNewIdent is validateIdent plus the rules for a name a table or view is
// created or renamed to (iceberg.CheckIdentifier): existing rows with
// other names stay readable.
func validateNewIdent(id Identifier) error {
	if err := validateIdent(id); err != nil {
		return err
	}
	return iceberg.CheckIdentifier(id.Namespace, id.Name)
}

// validateNamespace rejects what the dot-joined storage cannot round-trip.
func validateNamespace(ns []string) error {
	if len(ns) == 0 {
		return wrapf(ErrInvalidIdentifier, "empty namespace")
	}
	for _, level := range ns {
		switch {
		case level == "":
			return wrapf(ErrInvalidIdentifier, "empty level in namespace %q", joinNamespace(ns))
		case strings.Contains(level, "."):
			return wrapf(ErrInvalidIdentifier, "namespace level %q contains a dot", level)
		case strings.ContainsRune(level, 0):
			return wrapf(ErrInvalidIdentifier, "namespace level %q contains a NUL byte", level)
		}
	}
	return nil
}

func joinNamespace(ns []string) string { return strings.Join(ns, ".") }

func splitNamespace(s string) []string { return strings.Split(s, ".") }
