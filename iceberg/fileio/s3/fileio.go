package s3

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/icesql/icesql/iceberg/fileio"
)

// FileIO is a fileio.FileIO on one S3 endpoint (any bucket).
type FileIO struct {
	client *s3.Client
	cfg    Config
}

var (
	_ fileio.FileIO      = (*FileIO)(nil)
	_ fileio.BulkRemover = (*FileIO)(nil)
)

// New connects a FileIO. It sends no request: a wrong endpoint or
// credential shows at the first file operation.
func New(ctx context.Context, cfg Config) (*FileIO, error) {
	if cfg.PartSize == 0 {
		cfg.PartSize = DefaultPartSize
	}
	if cfg.PartSize < MinPartSize {
		return nil, &PropertyError{Name: PropPartSize, Value: fmt.Sprint(cfg.PartSize), Reason: "below S3's 5 MiB minimum"}
	}
	if cfg.DeleteBatchSize <= 0 || cfg.DeleteBatchSize > maxDeleteBatchSize {
		cfg.DeleteBatchSize = DefaultDeleteBatchSize
	}
	var opts []func(*awsconfig.LoadOptions) error
	if cfg.Region != "" {
		opts = append(opts, awsconfig.WithRegion(cfg.Region))
	}
	if cfg.AccessKeyID != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, cfg.SessionToken)))
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3: load AWS configuration: %w", err)
	}
	if awsCfg.Region == "" {
		// S3-compatible stores ignore the region but the signer needs one.
		awsCfg.Region = "us-east-1"
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.UsePathStyle = cfg.PathStyle
		// Checksums only where the operation requires them: several
		// S3-compatible stores reject the newer default trailers.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	return &FileIO{client: client, cfg: cfg}, nil
}

// Client is the SDK client, for tests and tools that need other calls.
func (f *FileIO) Client() *s3.Client { return f.client }

// Open implements fileio.FileIO: one HEAD for the size and ETag; reads
// are ranged GETs pinned to that ETag, so a file replaced behind the
// reader fails instead of mixing two versions.
func (f *FileIO) Open(ctx context.Context, location string) (fileio.InputFile, error) {
	bucket, key, err := ParseLocation(location)
	if err != nil {
		return nil, err
	}
	if key == "" || strings.HasSuffix(key, "/") {
		return nil, &fileio.PathError{Op: "open", Location: location, Err: fileio.ErrNotAFile}
	}
	out, err := f.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		return nil, wrap("open", location, err)
	}
	return &input{io: f, ctx: context.WithoutCancel(ctx), bucket: bucket, key: key, loc: location,
		size: aws.ToInt64(out.ContentLength), etag: aws.ToString(out.ETag)}, nil
}

// Create implements fileio.FileIO. The object appears only when Close
// succeeds, written with If-None-Match: * (a second writer of the same
// location gets fileio.ErrExists from Close); Abort leaves nothing.
func (f *FileIO) Create(ctx context.Context, location string) (fileio.OutputFile, error) {
	bucket, key, err := ParseLocation(location)
	if err != nil {
		return nil, err
	}
	if key == "" || strings.HasSuffix(key, "/") {
		return nil, &fileio.PathError{Op: "create", Location: location, Err: fileio.ErrNotAFile}
	}
	return &output{io: f, ctx: context.WithoutCancel(ctx), bucket: bucket, key: key, loc: location}, nil
}

// Remove implements fileio.FileIO; a missing object is not an error (S3
// answers 204 either way).
func (f *FileIO) Remove(ctx context.Context, location string) error {
	bucket, key, err := ParseLocation(location)
	if err != nil {
		return err
	}
	_, err = f.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: &key})
	if err = wrap("remove", location, err); errors.Is(err, fileio.ErrNotFound) {
		return nil
	}
	return err
}

// RemoveAll implements fileio.BulkRemover with DeleteObjects, batches of
// cfg.DeleteBatchSize keys per bucket. Missing objects are not errors.
func (f *FileIO) RemoveAll(ctx context.Context, locations []string) error {
	byBucket := map[string][]string{}
	var order []string
	for _, loc := range locations {
		bucket, key, err := ParseLocation(loc)
		if err != nil {
			return err
		}
		if _, ok := byBucket[bucket]; !ok {
			order = append(order, bucket)
		}
		byBucket[bucket] = append(byBucket[bucket], key)
	}
	for _, bucket := range order {
		keys := byBucket[bucket]
		for len(keys) > 0 {
			n := min(len(keys), f.cfg.DeleteBatchSize)
			objs := make([]types.ObjectIdentifier, n)
			for i, k := range keys[:n] {
				objs[i] = types.ObjectIdentifier{Key: aws.String(k)}
			}
			out, err := f.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(bucket),
				Delete: &types.Delete{Objects: objs, Quiet: aws.Bool(true)}})
			if err != nil {
				return wrap("remove", "s3://"+bucket+"/"+keys[0], err)
			}
			for _, e := range out.Errors {
				if aws.ToString(e.Code) == "NoSuchKey" {
					continue
				}
				return &fileio.PathError{Op: "remove", Location: "s3://" + bucket + "/" + aws.ToString(e.Key),
					Err: fmt.Errorf("%s: %s", aws.ToString(e.Code), aws.ToString(e.Message))}
			}
			keys = keys[n:]
		}
	}
	return nil
}

// List implements fileio.FileIO: the objects whose keys start with the
// prefix taken as a directory (a "/" is added), page by page.
func (f *FileIO) List(ctx context.Context, prefix string) iter.Seq2[fileio.FileInfo, error] {
	return func(yield func(fileio.FileInfo, error) bool) {
		bucket, key, err := ParseLocation(prefix)
		if err != nil {
			yield(fileio.FileInfo{}, err)
			return
		}
		if key != "" && !strings.HasSuffix(key, "/") {
			key += "/"
		}
		scheme, _, _ := strings.Cut(prefix, "://")
		p := s3.NewListObjectsV2Paginator(f.client, &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: &key})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				yield(fileio.FileInfo{}, wrap("list", prefix, err))
				return
			}
			for _, o := range page.Contents {
				k := aws.ToString(o.Key)
				if strings.HasSuffix(k, "/") {
					continue // a "directory" marker some tools write
				}
				info := fileio.FileInfo{Location: scheme + "://" + bucket + "/" + k, Size: aws.ToInt64(o.Size)}
				if o.LastModified != nil {
					info.ModTime = *o.LastModified
				} else {
					info.ModTime = time.Time{}
				}
				if !yield(info, nil) {
					return
				}
			}
		}
	}
}
