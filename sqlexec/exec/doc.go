// Package exec is the vectorised runtime of the query engine: record
// iterators (physical operators) over Arrow record batches and the array
// kernels that bound expressions evaluate with.
//
// Conventions: an iterator's Next returns a batch the caller owns (and must
// Release), or (nil, nil) once exhausted. Kernels return arrays the caller
// owns. Every operator checks its context between batches.
package exec
