package fileio

import "strings"

// IsStorageProperty says whether a property configures storage (Iceberg's
// FileIO names: s3.*, client.*) rather than a catalog or the engine.
func IsStorageProperty(k string) bool {
	return strings.HasPrefix(k, "s3.") || strings.HasPrefix(k, "client.")
}

// StorageProperties keeps the storage properties of props.
func StorageProperties(props map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range props {
		if IsStorageProperty(k) {
			out[k] = v
		}
	}
	return out
}
