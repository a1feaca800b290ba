package s3

import (
	"bytes"
	"context"
	"io/fs"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/icesql/icesql/iceberg/fileio"
)

// partsInFlight bounds the parts uploading at once; with the part being
// filled, a writer holds at most (partsInFlight+1) * PartSize bytes.
const partsInFlight = 2

// output buffers a new object. Up to one part it goes up with a single
// PUT on Close; beyond, as a multipart upload whose parts upload in the
// background while the next fills. Either way the object appears only at
// Close, with If-None-Match: *.
type output struct {
	io     *FileIO
	ctx    context.Context
	bucket string
	key    string
	loc    string

	buf      []byte
	written  int64
	done     bool
	closedOK bool // Close made the object appear

	uploadID string
	nextPart int32
	sem      chan struct{}
	wg       sync.WaitGroup
	mu       sync.Mutex
	parts    []types.CompletedPart
	partErr  error
}

func (o *output) Location() string { return o.loc }
func (o *output) Written() int64   { return o.written }

func (o *output) Write(p []byte) (int, error) {
	if o.done {
		return 0, &fileio.PathError{Op: "write", Location: o.loc, Err: fs.ErrClosed}
	}
	n := len(p)
	for len(p) > 0 {
		if o.buf == nil {
			o.buf = make([]byte, 0, min(int64(len(p)), o.io.cfg.PartSize))
		}
		room := int(o.io.cfg.PartSize) - len(o.buf)
		take := min(room, len(p))
		o.buf = append(o.buf, p[:take]...)
		p = p[take:]
		if len(o.buf) == int(o.io.cfg.PartSize) {
			if err := o.flushPart(); err != nil {
				return n - len(p), err
			}
		}
	}
	o.written += int64(n)
	return n, nil
}

// flushPart starts the upload of the full buffer as the next part.
func (o *output) flushPart() error {
	if err := o.err(); err != nil {
		return err
	}
	if o.uploadID == "" {
		out, err := o.io.client.CreateMultipartUpload(o.ctx, &s3.CreateMultipartUploadInput{Bucket: &o.bucket, Key: &o.key})
		if err != nil {
			return wrap("create", o.loc, err)
		}
		o.uploadID = aws.ToString(out.UploadId)
		o.sem = make(chan struct{}, partsInFlight)
	}
	o.nextPart++
	num, body := o.nextPart, o.buf
	o.buf = nil
	o.sem <- struct{}{}
	o.wg.Add(1)
	go func() {
		defer func() { <-o.sem; o.wg.Done() }()
		out, err := o.io.client.UploadPart(o.ctx, &s3.UploadPartInput{Bucket: &o.bucket, Key: &o.key,
			UploadId: &o.uploadID, PartNumber: aws.Int32(num), Body: bytes.NewReader(body),
			ContentLength: aws.Int64(int64(len(body)))})
		o.mu.Lock()
		defer o.mu.Unlock()
		if err != nil {
			if o.partErr == nil {
				o.partErr = wrap("write", o.loc, err)
			}
			return
		}
		o.parts = append(o.parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
	}()
	return nil
}

func (o *output) err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.partErr
}

// Close uploads what is buffered and makes the object appear, unless
// another writer created it first (fileio.ErrExists). An S3 PUT is
// durable when it returns, so Close is the point of durability too.
func (o *output) Close() error {
	if o.done {
		return nil
	}
	o.done = true
	if o.uploadID == "" {
		_, err := o.io.client.PutObject(o.ctx, &s3.PutObjectInput{Bucket: &o.bucket, Key: &o.key,
			Body: bytes.NewReader(o.buf), ContentLength: aws.Int64(int64(len(o.buf))), IfNoneMatch: aws.String("*")})
		o.buf = nil
		o.closedOK = err == nil
		return wrap("close", o.loc, err)
	}
	if len(o.buf) > 0 {
		if err := o.flushPart(); err != nil {
			o.abortUpload()
			return err
		}
	}
	o.wg.Wait()
	if err := o.err(); err != nil {
		o.abortUpload()
		return err
	}
	sort.Slice(o.parts, func(i, j int) bool { return *o.parts[i].PartNumber < *o.parts[j].PartNumber })
	_, err := o.io.client.CompleteMultipartUpload(o.ctx, &s3.CompleteMultipartUploadInput{Bucket: &o.bucket,
		Key: &o.key, UploadId: &o.uploadID, MultipartUpload: &types.CompletedMultipartUpload{Parts: o.parts},
		IfNoneMatch: aws.String("*")})
	if err != nil {
		o.abortUpload()
		return wrap("close", o.loc, err)
	}
	o.closedOK = true
	return nil
}

// Abort drops the upload, so the object never appears; after a Close
// that succeeded it removes the object, as fileio.OutputFile asks.
func (o *output) Abort() error {
	if o.closedOK {
		return o.io.Remove(o.ctx, o.loc)
	}
	if !o.done {
		o.done = true
		o.buf = nil
		if o.uploadID != "" {
			o.abortUpload()
		}
	}
	return nil
}

func (o *output) abortUpload() {
	o.wg.Wait()
	o.io.client.AbortMultipartUpload(o.ctx, &s3.AbortMultipartUploadInput{Bucket: &o.bucket, Key: &o.key, UploadId: &o.uploadID})
}
