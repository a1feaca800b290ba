//go:build !unix

package driver_test

// processCPU is unavailable here; the cpu-ms/op metric then reads 0.
func processCPU() int64 { return 0 }
