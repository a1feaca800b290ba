package table

// FaultStep names a point of the write path where tests inject failures.
type FaultStep string

const (
	// FaultAfterManifests: manifests and the manifest list are written.
	FaultAfterManifests FaultStep = "after-manifests"
	// FaultAfterMetadata: metadata.json is written, the swap not yet sent.
	FaultAfterMetadata FaultStep = "after-metadata"
	// FaultAfterSwap: the swap went through, but its outcome is reported
	// as unknown (as when the connection drops after the UPDATE was sent).
	FaultAfterSwap FaultStep = "after-swap"
	// FaultStatusCheck: reading the pointer back after an unknown outcome
	// fails too, so the outcome stays unknown.
	FaultStatusCheck FaultStep = "status-check"
)

// Faults injects failures into the write path. Hook returns a non-nil
// error to fail the commit at that step; for FaultAfterSwap the error is
// returned to the caller wrapped as iceberg.ErrCommitStateUnknown.
type Faults struct {
	Hook func(step FaultStep, table Identifier) error
}

func (f *Faults) at(step FaultStep, ident Identifier) error {
	if f == nil || f.Hook == nil {
		return nil
	}
	return f.Hook(step, ident)
}
