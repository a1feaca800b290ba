package iceberg

import "fmt"

// TypeVersionError reports a column whose type needs a newer table format
// version than the table has (types added in v3 need v3). It wraps
// ErrInvalidSchema.
type TypeVersionError struct {
	Column        string
	Type          Type
	MinVersion    int
	FormatVersion int
}

func (e *TypeVersionError) Error() string {
	return fmt.Sprintf("%v: column %q has type %s, which needs format version %d (table has format version %d)",
		ErrInvalidSchema, e.Column, e.Type, e.MinVersion, e.FormatVersion)
}

func (e *TypeVersionError) Unwrap() error { return ErrInvalidSchema }

// CheckTypesForFormatVersion returns a *TypeVersionError for the first
// column of s (nested ones included) whose type is newer than the format
// version, and an ErrInvalidSchema error for an unknown column that is
// required or has a non-null default.
func CheckTypesForFormatVersion(s *Schema, formatVersion int) error {
	return checkFieldVersions(s, s.Fields(), formatVersion)
}

func checkFieldVersions(s *Schema, fields []NestedField, version int) error {
	for _, f := range fields {
		if nested, ok := f.Type.(NestedType); ok {
			if err := checkFieldVersions(s, nested.Fields(), version); err != nil {
				return err
			}
			continue
		}
		name, ok := s.FindColumnName(f.ID)
		if !ok {
			name = f.Name
		}
		if need := MinFormatVersion(f.Type); need > version {
			return &TypeVersionError{Column: name, Type: f.Type, MinVersion: need, FormatVersion: version}
		}
		if _, variant := f.Type.(VariantType); variant && (f.InitialDefault != nil || f.WriteDefault != nil) {
			return metaErrorf(ErrInvalidSchema, "column %q of type variant must have null defaults", name)
		}
		if _, unknown := f.Type.(UnknownType); unknown {
			// the spec: unknown columns are optional with null defaults
			if f.Required {
				return metaErrorf(ErrInvalidSchema, "column %q of type unknown must be optional (its values are always null)", name)
			}
			if f.InitialDefault != nil || f.WriteDefault != nil {
				return metaErrorf(ErrInvalidSchema, "column %q of type unknown must have null defaults", name)
			}
		}
	}
	return nil
}

// checkSchemaVersions applies CheckTypesForFormatVersion to every schema
// of the metadata being built.
func checkSchemaVersions(m *TableMetadata) error {
	for _, s := range m.schemas {
		if err := CheckTypesForFormatVersion(s, m.formatVersion); err != nil {
			return err
		}
	}
	return nil
}
