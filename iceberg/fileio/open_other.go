//go:build !unix

package fileio

import "os"

// openNoWait opens a file for reading, refusing what is not a regular
// file before opening it (where opening could block, as on a FIFO).
func openNoWait(p string) (*os.File, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, ErrNotAFile
	}
	return os.Open(p)
}
