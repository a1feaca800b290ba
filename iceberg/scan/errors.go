package scan

import "fmt"

// PlanError names the file planning failed on; Unwrap gives the cause
// (an *iceberg.CorruptFileError, *expr.BoundDecodeError, I/O error...).
type PlanError struct {
	Path string // manifest list or manifest
	Err  error
}

func (e *PlanError) Error() string { return fmt.Sprintf("scan: planning %s: %v", e.Path, e.Err) }

func (e *PlanError) Unwrap() error { return e.Err }
