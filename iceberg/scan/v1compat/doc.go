// Package v1compat holds end-to-end tests, through database/sql, of
// format v1 tables whose snapshots list their manifests inline (no
// manifest list), as early Iceberg writers left them. It has no API.
package v1compat
