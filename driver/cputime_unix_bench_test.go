//go:build unix

package driver_test

import "syscall"

// processCPU is the CPU time (user and system) the process has used, in
// nanoseconds; benchmarks report it per operation because wall time on a
// shared machine depends on the other load.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
