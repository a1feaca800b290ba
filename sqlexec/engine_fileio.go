package sqlexec

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
)

// newFileIO is the engine's storage: local files, and s3:// locations
// through one S3 client configured by the properties (the AWS default
// credential chain where they name none). The S3 client is made at once
// when the warehouse is on S3, else on the first s3:// location met (a
// table registered from elsewhere), so a local warehouse never reads AWS
// configuration it does not need.
func newFileIO(ctx context.Context, props map[string]string, objectStore bool) (*fileio.Router, error) {
	r := &fileio.Router{Default: &fileio.Local{}}
	if err := setS3(ctx, r, props, objectStore); err != nil {
		return nil, err
	}
	return r, nil
}

// setS3 (re)configures the router's S3 schemes; only before first use.
func setS3(ctx context.Context, r *fileio.Router, props map[string]string, objectStore bool) error {
	cfg, err := s3io.ConfigFromProperties(props)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidStatement, err)
	}
	var s3 fileio.FileIO
	if objectStore {
		if s3, err = s3io.New(ctx, cfg); err != nil {
			return err
		}
	} else {
		s3 = s3io.Lazy(cfg)
	}
	r.Schemes = map[string]fileio.FileIO{"s3": s3, "s3a": s3, "s3n": s3}
	return nil
}

// catalogStorage applies the storage properties of a catalog's own
// configuration (a REST server's /v1/config defaults and overrides, merged
// with the DSN's by the client) to the router, so a server can vend the
// warehouse's endpoint and credentials once for every table.
func catalogStorage(ctx context.Context, r *fileio.Router, cat any, dsn map[string]string, objectStore bool) (map[string]string, error) {
	p, ok := cat.(interface{ Properties() map[string]string })
	if !ok {
		return dsn, nil
	}
	merged := fileio.StorageProperties(p.Properties())
	if maps.Equal(merged, fileio.StorageProperties(dsn)) {
		return dsn, nil
	}
	if err := setS3(ctx, r, merged, objectStore); err != nil {
		return nil, fmt.Errorf("storage properties from the catalog's configuration: %w", err)
	}
	return merged, nil
}

// vendedIO mounts the storage credentials a catalog vends for a table
// (REST's load-table "config") on the table's location, over the
// engine's own properties. S3 clients are shared by configuration, so
// reloading a table does not make a new client each time.
type vendedIO struct {
	router *fileio.Router
	base   map[string]string

	mu      sync.Mutex
	clients map[string]fileio.FileIO
}

// maxVendedClients bounds the clients kept for distinct vended
// configurations (credentials that rotate make new ones).
const maxVendedClients = 256

func (v *vendedIO) mount(tableLocation string, config map[string]string) {
	vended := fileio.StorageProperties(config)
	if len(vended) == 0 || !s3io.IsLocation(tableLocation) {
		return
	}
	props := maps.Clone(v.base)
	if props == nil {
		props = map[string]string{}
	}
	maps.Copy(props, vended)
	cfg, err := s3io.ConfigFromProperties(props)
	if err != nil {
		return // the table's files then fail with the engine's own credentials, naming the file
	}
	key := configKey(props)
	v.mu.Lock()
	fio, ok := v.clients[key]
	if !ok {
		if len(v.clients) >= maxVendedClients {
			clear(v.clients)
		}
		fio = s3io.Lazy(cfg)
		v.clients[key] = fio
	}
	v.mu.Unlock()
	v.router.Mount(tableLocation, fio)
}

func configKey(props map[string]string) string {
	var sb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(props)) {
		sb.WriteString(k)
		sb.WriteByte(0)
		sb.WriteString(props[k])
		sb.WriteByte(0)
	}
	return sb.String()
}
