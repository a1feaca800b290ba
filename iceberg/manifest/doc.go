// Package manifest reads and writes Iceberg manifests and manifest lists,
// the Avro container files that index a snapshot's data and delete files.
//
// Readers compile a decoding plan from each file's own Avro schema and bind
// fields by field id, so files written by Java, iceberg-go or older format
// versions read alike (NewManifestReader, ReadManifest, ReadManifestList).
// Writers (NewManifestWriter, WriteManifestList) emit the spec's schemas
// with field ids and header keys, track partition summaries and counts, and
// fill the manifest list entry (ManifestWriter.ToManifestFile).
//
// Corrupt input yields an *iceberg.CorruptFileError (with WithPath) that
// matches iceberg.ErrInvalidManifest; nothing in the package panics on it.
package manifest
