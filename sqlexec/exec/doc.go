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
//
// Hash aggregation counts its group table against half the budget too;
// once full, the table freezes (its groups still update in memory) and
// rows of new groups go to hash partitions on disk, aggregated one at a
// time afterwards and re-partitioned with a fresh seed when one is still
// too big (agg_spill*.go). Window streams its sorted input and computes
// each partition as soon as the next one starts, so it holds the largest
// partition, not the input. Hash joins partition both sides by key hash
// into spill files past the budget and join them partition by partition
// (join_spill*.go); a build side shared by parallel workers does not spill.
package exec
