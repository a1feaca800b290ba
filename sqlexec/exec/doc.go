// Package exec is the vectorised runtime of the query engine: record
// iterators (physical operators) over Arrow record batches and the array
// kernels that bound expressions evaluate with.
//
// Conventions: an iterator's Next returns a batch the caller owns (and must
// Release), or (nil, nil) once exhausted. Kernels return arrays the caller
// owns. Every operator checks its context between batches.
//
// # Memory limit
//
// EvalContext.MemoryLimit (bytes; 0 means DefaultMemoryLimit, 512 MiB) is
// a per-operator budget for operators that would otherwise hold their
// whole input. Sort counts the Arrow buffers of the batches it holds;
// past half the budget (sorting copies once more) it sorts them into a
// run, an Arrow IPC stream of the input columns plus the evaluated sort
// keys written to a temporary file in EvalContext.SpillDir (os.TempDir()
// when empty). At the end of its input it merges the runs with a heap,
// at most 16 at a time (earlier passes merge groups into new runs), and
// streams batches sized so the open runs stay within the budget. A sort
// that never spills returns one batch, as it always did. Spill files are
// removed once the merge ends, on error, on cancellation and on Close.
// Window drains its Sort into one batch, so a window's own memory is not
// bounded. Hash aggregation and hash joins do not spill yet.
package exec
