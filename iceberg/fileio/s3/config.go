// Package s3 is a fileio.FileIO on Amazon S3 and S3-compatible stores
// (versitygw, Ceph, R2, SeaweedFS, ...), through the AWS SDK for Go v2.
//
// Locations are s3://bucket/key (s3a:// and s3n:// too, as Java's
// S3FileIO accepts). The key is the literal rest of the location: it is
// not URL-decoded, as Java and PyIceberg do not decode it either.
//
// New files are written with If-None-Match: *, so two writers can never
// overwrite each other's file; large files go up in parts (multipart
// upload) with bounded memory; reads are ranged GETs, so a Parquet
// footer or column chunk costs one request of its own size.
package s3

import (
	"fmt"
	"strconv"
	"strings"
)

// Property names, as Iceberg's S3FileIO spells them.
const (
	PropEndpoint        = "s3.endpoint"
	PropAccessKeyID     = "s3.access-key-id"
	PropSecretAccessKey = "s3.secret-access-key"
	PropSessionToken    = "s3.session-token"
	PropPathStyle       = "s3.path-style-access"
	PropRegion          = "client.region"
	PropPartSize        = "s3.multipart.part-size-bytes"
	PropDeleteBatchSize = "s3.delete.batch-size"
)

// Defaults, as Java's S3FileIOProperties has them (part size 32 MiB,
// delete batches of 250 keys; S3 allows up to 1,000).
const (
	DefaultPartSize        = 32 << 20
	MinPartSize            = 5 << 20 // S3's smallest part but the last
	DefaultDeleteBatchSize = 250
	maxDeleteBatchSize     = 1000
)

// Config configures a FileIO. Empty credentials use the AWS default chain
// (environment, shared config files, instance roles).
type Config struct {
	Endpoint        string
	Region          string
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
	PathStyle       bool
	PartSize        int64
	DeleteBatchSize int
}

// ConfigFromProperties reads a Config from Iceberg FileIO properties;
// properties of other FileIOs are ignored.
func ConfigFromProperties(props map[string]string) (Config, error) {
	c := Config{
		Endpoint:        props[PropEndpoint],
		Region:          props[PropRegion],
		AccessKeyID:     props[PropAccessKeyID],
		SecretAccessKey: props[PropSecretAccessKey],
		SessionToken:    props[PropSessionToken],
		PartSize:        DefaultPartSize,
		DeleteBatchSize: DefaultDeleteBatchSize,
	}
	if v, ok := props[PropPathStyle]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, &PropertyError{Name: PropPathStyle, Value: v, Reason: "want true or false"}
		}
		c.PathStyle = b
	}
	if v, ok := props[PropPartSize]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < MinPartSize || n > 5<<30 {
			return c, &PropertyError{Name: PropPartSize, Value: v, Reason: fmt.Sprintf("want bytes between %d and %d", MinPartSize, int64(5<<30))}
		}
		c.PartSize = n
	}
	if v, ok := props[PropDeleteBatchSize]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxDeleteBatchSize {
			return c, &PropertyError{Name: PropDeleteBatchSize, Value: v, Reason: fmt.Sprintf("want 1 to %d keys", maxDeleteBatchSize)}
		}
		c.DeleteBatchSize = n
	}
	if (c.AccessKeyID == "") != (c.SecretAccessKey == "") {
		return c, &PropertyError{Name: PropAccessKeyID, Reason: "s3.access-key-id and s3.secret-access-key go together"}
	}
	return c, nil
}

// IsLocation reports whether a location is one this package serves.
func IsLocation(location string) bool {
	_, rest, ok := strings.Cut(location, "://")
	if !ok {
		return false
	}
	switch strings.ToLower(location[:len(location)-len(rest)-3]) {
	case "s3", "s3a", "s3n":
		return true
	}
	return false
}

// ParseLocation splits s3://bucket/key into bucket and key. The key is
// taken literally (no URL decoding); it may be empty for a bucket root.
func ParseLocation(location string) (bucket, key string, err error) {
	if !IsLocation(location) {
		return "", "", &LocationError{Location: location, Reason: "not an s3:// location"}
	}
	_, rest, _ := strings.Cut(location, "://")
	bucket, key, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", &LocationError{Location: location, Reason: "no bucket"}
	}
	if strings.ContainsAny(bucket, "?#") {
		return "", "", &LocationError{Location: location, Reason: "bucket name has ? or #"}
	}
	return bucket, key, nil
}
