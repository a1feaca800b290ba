package s3

import (
	"errors"
	"fmt"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/icesql/icesql/iceberg/fileio"
)

// Failures of S3 requests are *fileio.PathErrors naming the operation
// and location; they wrap fileio.ErrNotFound (404, NoSuchKey),
// fileio.ErrExists (412 on an If-None-Match write) or the SDK's error,
// which errors.As finds as a smithy.APIError.

// PropertyError is a FileIO property with a value this package can't use.
type PropertyError struct {
	Name, Value, Reason string
}

func (e *PropertyError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("s3: property %s: %s", e.Name, e.Reason)
	}
	return fmt.Sprintf("s3: property %s=%q: %s", e.Name, e.Value, e.Reason)
}

// Unwrap makes a bad property an unsupported-location error of fileio.
func (e *PropertyError) Unwrap() error { return fileio.ErrBadLocation }

// LocationError is a location this package can't address.
type LocationError struct {
	Location, Reason string
}

func (e *LocationError) Error() string {
	return fmt.Sprintf("s3: location %s: %s", e.Location, e.Reason)
}
func (e *LocationError) Unwrap() error { return fileio.ErrBadLocation }

// wrap turns an SDK error into a *fileio.PathError with the sentinel that
// fits its status.
func wrap(op, location string, err error) error {
	if err == nil {
		return nil
	}
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		switch re.HTTPStatusCode() {
		case 404:
			return &fileio.PathError{Op: op, Location: location, Err: fileio.ErrNotFound}
		case 412:
			if op == "create" || op == "close" {
				return &fileio.PathError{Op: op, Location: location, Err: fileio.ErrExists}
			}
		}
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "NoSuchKey", "NotFound":
			return &fileio.PathError{Op: op, Location: location, Err: fileio.ErrNotFound}
		}
	}
	return &fileio.PathError{Op: op, Location: location, Err: err}
}
