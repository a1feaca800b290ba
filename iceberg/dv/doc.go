// Package dv reads and writes Iceberg format v3 deletion vectors: the
// 64-bit Roaring bitmap of deleted row positions in its portable
// serialization, and the deletion-vector-v1 Puffin blob around it (length,
// magic, bitmap, CRC-32). Positions are handled as sorted, unique int64
// slices, the form the read path applies them in.
package dv
