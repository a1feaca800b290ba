//go:build unix

package interop

import "syscall"

// processCPU is the CPU time (user and system) the process has used, in
// nanoseconds: the side-by-side benchmarks report it per operation, since
// one engine may use both cores where the other uses one.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
