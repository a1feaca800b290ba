// Package interop checks that icesql and iceberg-go read and write each
// other's tables and catalog files, and benchmarks them side by side. It is
// a module of its own so that the main module does not depend on
// iceberg-go.
package interop
