package fileio

import (
	"context"
	"sync/atomic"
)

// CountReads returns a FileIO over fio whose opened files add every byte
// they return from Read and ReadAt to n: the bytes actually fetched from
// storage, which EXPLAIN ANALYZE reports. It is meant for a read path;
// writes, removals and listings go to fio unchanged (its optional
// interfaces, such as LazySyncer, are not carried over).
func CountReads(fio FileIO, n *atomic.Int64) FileIO {
	return &countingIO{FileIO: fio, n: n}
}

type countingIO struct {
	FileIO
	n *atomic.Int64
}

func (c *countingIO) Open(ctx context.Context, location string) (InputFile, error) {
	in, err := c.FileIO.Open(ctx, location)
	if err != nil {
		return nil, err
	}
	return &countingInput{InputFile: in, n: c.n}, nil
}

type countingInput struct {
	InputFile
	n *atomic.Int64
}

func (c *countingInput) ReadAt(p []byte, off int64) (int, error) {
	k, err := c.InputFile.ReadAt(p, off)
	c.n.Add(int64(k))
	return k, err
}

func (c *countingInput) Read(p []byte) (int, error) {
	k, err := c.InputFile.Read(p)
	c.n.Add(int64(k))
	return k, err
}

// RemoteReads is the counted file's, so a counted scan (EXPLAIN ANALYZE)
// fetches ahead as the same scan does uncounted.
func (c *countingInput) RemoteReads() bool {
	r, ok := c.InputFile.(RemoteReads)
	return ok && r.RemoteReads()
}
