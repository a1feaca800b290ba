package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/icesql/icesql/iceberg/fileio"
)

// input reads one object: ReadAt with a ranged GET per call (readers of
// Parquet ask for a footer, then for column chunks, each once), Read
// with one streaming GET from the current offset.
type input struct {
	io     *FileIO
	ctx    context.Context
	bucket string
	key    string
	loc    string
	size   int64
	etag   string

	pos    int64
	body   io.ReadCloser // streaming Read's response body, or nil
	closed bool
}

// readAttempts bounds retries of a ranged read whose body broke off (the
// SDK retries the request itself, not a body cut short).
const readAttempts = 3

func (in *input) Size() int64       { return in.size }
func (in *input) RemoteReads() bool { return true }
func (in *input) Location() string  { return in.loc }

func (in *input) ReadAt(p []byte, off int64) (int, error) {
	if in.closed {
		return 0, &fileio.PathError{Op: "read", Location: in.loc, Err: fs.ErrClosed}
	}
	if off < 0 {
		return 0, &fileio.PathError{Op: "read", Location: in.loc, Err: fs.ErrInvalid}
	}
	if off >= in.size {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n == 0 {
		return 0, nil
	}
	var eof error
	if off+n > in.size {
		n, eof = in.size-off, io.EOF
	}
	var err error
	for range readAttempts {
		var got int
		got, err = in.readRange(p[:n], off)
		if err == nil {
			return got, eof
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
	}
	return 0, err
}

func (in *input) readRange(p []byte, off int64) (int, error) {
	rng := fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1)
	out, err := in.io.client.GetObject(in.ctx, &s3.GetObjectInput{Bucket: &in.bucket, Key: &in.key,
		Range: &rng, IfMatch: ifMatch(in.etag)})
	if err != nil {
		return 0, wrap("read", in.loc, err)
	}
	defer out.Body.Close()
	n, err := io.ReadFull(out.Body, p)
	if err == nil {
		// Read on to the body's end (nothing is left): a body closed
		// before its EOF is seen closes the connection instead of
		// returning it to the pool.
		_, err = io.Copy(io.Discard, io.LimitReader(out.Body, 1))
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return n, &fileio.PathError{Op: "read", Location: in.loc, Err: err}
	}
	return n, nil
}

func (in *input) Read(p []byte) (int, error) {
	if in.closed {
		return 0, &fileio.PathError{Op: "read", Location: in.loc, Err: fs.ErrClosed}
	}
	if in.pos >= in.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if in.body == nil {
		rng := fmt.Sprintf("bytes=%d-", in.pos)
		out, err := in.io.client.GetObject(in.ctx, &s3.GetObjectInput{Bucket: &in.bucket, Key: &in.key,
			Range: &rng, IfMatch: ifMatch(in.etag)})
		if err != nil {
			return 0, wrap("read", in.loc, err)
		}
		in.body = out.Body
	}
	n, err := in.body.Read(p)
	in.pos += int64(n)
	if err != nil {
		in.body.Close()
		in.body = nil
		if errors.Is(err, io.EOF) {
			if in.pos < in.size {
				// The stream ended early; the next Read asks again from here.
				return n, nil
			}
			return n, io.EOF
		}
		return n, &fileio.PathError{Op: "read", Location: in.loc, Err: err}
	}
	return n, nil
}

func (in *input) Close() error {
	if in.closed {
		return nil
	}
	in.closed = true
	if in.body != nil {
		in.body.Close()
		in.body = nil
	}
	return nil
}

func ifMatch(etag string) *string {
	if etag == "" {
		return nil
	}
	return aws.String(etag)
}
