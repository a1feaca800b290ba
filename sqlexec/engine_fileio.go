package sqlexec

import (
	"context"
	"fmt"

	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
)

// newFileIO is the engine's storage: local files, and s3:// locations
// through one S3 client configured by the properties (the AWS default
// credential chain where they name none). The S3 client is made at once
// when the warehouse is on S3, else on the first s3:// location met (a
// table registered from elsewhere), so a local warehouse never reads AWS
// configuration it does not need.
func newFileIO(ctx context.Context, props map[string]string, objectStore bool) (fileio.FileIO, error) {
	cfg, err := s3io.ConfigFromProperties(props)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidStatement, err)
	}
	var s3 fileio.FileIO
	if objectStore {
		if s3, err = s3io.New(ctx, cfg); err != nil {
			return nil, err
		}
	} else {
		s3 = s3io.Lazy(cfg)
	}
	return &fileio.Router{Default: &fileio.Local{}, Schemes: map[string]fileio.FileIO{"s3": s3, "s3a": s3, "s3n": s3}}, nil
}
