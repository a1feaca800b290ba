//go:build unix

package fileio

import (
	"os"
	"syscall"
)

// openNoWait opens a file for reading without blocking on what is not a
// regular file: opening a FIFO for reading otherwise waits for a writer,
// and the caller refuses anything but a regular file after one fstat.
func openNoWait(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
