package s3

import (
	"context"
	"iter"
	"sync"

	"github.com/icesql/icesql/iceberg/fileio"
)

// Lazy is a FileIO that connects (New) on first use; a failure to load
// the AWS configuration is that operation's error, and the next one's.
func Lazy(cfg Config) fileio.FileIO { return &lazy{cfg: cfg} }

type lazy struct {
	cfg  Config
	once sync.Once
	fio  *FileIO
	err  error
}

var (
	_ fileio.FileIO      = (*lazy)(nil)
	_ fileio.BulkRemover = (*lazy)(nil)
)

func (l *lazy) get(ctx context.Context) (*FileIO, error) {
	l.once.Do(func() { l.fio, l.err = New(context.WithoutCancel(ctx), l.cfg) })
	return l.fio, l.err
}

func (l *lazy) Open(ctx context.Context, location string) (fileio.InputFile, error) {
	f, err := l.get(ctx)
	if err != nil {
		return nil, err
	}
	return f.Open(ctx, location)
}

func (l *lazy) Create(ctx context.Context, location string) (fileio.OutputFile, error) {
	f, err := l.get(ctx)
	if err != nil {
		return nil, err
	}
	return f.Create(ctx, location)
}

func (l *lazy) Remove(ctx context.Context, location string) error {
	f, err := l.get(ctx)
	if err != nil {
		return err
	}
	return f.Remove(ctx, location)
}

func (l *lazy) RemoveAll(ctx context.Context, locations []string) error {
	f, err := l.get(ctx)
	if err != nil {
		return err
	}
	return f.RemoveAll(ctx, locations)
}

func (l *lazy) List(ctx context.Context, prefix string) iter.Seq2[fileio.FileInfo, error] {
	f, err := l.get(ctx)
	if err != nil {
		return func(yield func(fileio.FileInfo, error) bool) { yield(fileio.FileInfo{}, err) }
	}
	return f.List(ctx, prefix)
}
