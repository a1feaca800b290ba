package fileio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Local is a FileIO on the local file system. Locations are absolute
// paths (what icesql writes for files) or file: URIs (what it writes for
// table directories), both read literally as Java reads them; files of tables whose file: locations were written
// percent-encoded (iceberg-go, earlier icesql versions) are found too.
type Local struct {
	// NoSync skips fsync on Close. Only for tests and benchmarks that say
	// so; a commit may reference a file only once it is durable.
	NoSync bool
}

var (
	_ FileIO     = (*Local)(nil)
	_ LazySyncer = (*Local)(nil)
)

// LocalPath converts a location into an OS path. A file: location is the
// literal path after "file:" and an empty or localhost authority, as Java
// (Hadoop's Path over the local file system), PyIceberg and Spark read it:
// nothing is percent-decoded, so a partition directory "s=a%2Fb" is a
// file name holding "%2F". Plain paths are taken as they are.
func LocalPath(location string) (string, error) {
	if rest, ok := strings.CutPrefix(location, "file:"); ok {
		if after, ok := strings.CutPrefix(rest, "//"); ok {
			host, _, _ := strings.Cut(after, "/")
			if host != "" && host != "localhost" {
				return "", &PathError{Op: "parse", Location: location, Err: ErrBadLocation}
			}
			rest = after[len(host):]
		}
		if !strings.HasPrefix(rest, "/") {
			return "", &PathError{Op: "parse", Location: location, Err: ErrBadLocation}
		}
		return filepath.FromSlash(rest), nil
	}
	if strings.Contains(location, "://") {
		return "", &PathError{Op: "parse", Location: location, Err: ErrBadLocation}
	}
	return location, nil
}

// legacyPath is the percent-decoded reading of a file: location, as
// iceberg-go and earlier icesql versions read (and wrote) them: their
// files of "file:///a%20b" are in "/a b". Empty when it is the literal
// path, when decoding fails, or when decoding yields "." or ".." segments
// or a NUL (an encoded "%2F..%2F" must never reach outside its directory).
func legacyPath(location string) string {
	if !strings.HasPrefix(location, "file:") || !strings.Contains(location, "%") {
		return ""
	}
	u, err := url.Parse(location)
	if err != nil || u.Path == "" || (u.Host != "" && u.Host != "localhost") || strings.ContainsRune(u.Path, 0) {
		return ""
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return ""
		}
	}
	p := filepath.FromSlash(u.Path)
	if lit, err := LocalPath(location); err == nil && lit == p {
		return ""
	}
	return p
}

// LocalPaths are the OS paths a location may name: the literal path, then
// the legacy percent-decoded one when it differs.
func LocalPaths(location string) ([]string, error) {
	p, err := LocalPath(location)
	if err != nil {
		return nil, err
	}
	if lp := legacyPath(location); lp != "" {
		return []string{p, lp}, nil
	}
	return []string{p}, nil
}

// existingPath is the OS path of a location that names an existing file
// or directory: the literal path, or the legacy decoded one when only
// that exists. The literal path when neither exists.
func existingPath(location string) (string, error) {
	p, err := LocalPath(location)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		if lp := legacyPath(location); lp != "" {
			if _, err := os.Lstat(lp); err == nil {
				return lp, nil
			}
		}
	}
	return p, nil
}

// LocalURI converts an OS path into the location icesql gives a table or
// warehouse directory: a file:// URI holding the absolute path literally
// (spaces, colons and percent signs as they are), as Java writes one.
// Files below it are named by plain paths (LocalFileLocation,
// NewFileBase).
func LocalURI(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return "file://" + filepath.ToSlash(abs), nil
}

// LocalFileLocation converts an OS path into the location icesql records
// for a file: the absolute path, literal, with no scheme, as Java writes
// it for a warehouse given as a path. Every reader takes it literally:
// Java, Spark and PyIceberg read file: URIs literally too, but iceberg-go
// percent-decodes a file: URI, so a Java-escaped partition directory such
// as "s=d%C3%A9lta" is found by all of them only under a plain path.
func LocalFileLocation(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(abs), nil
}

// NewFileBase is the location below which new files of a table or
// directory location are named. A file: location becomes the plain path
// of the directory it names (see LocalFileLocation): literal, or percent-decoded
// where only that exists (tables of earlier icesql versions and of
// iceberg-go), so that new files land beside the table's others and read
// the same everywhere. Other locations are returned unchanged.
func NewFileBase(location string) string {
	if !strings.HasPrefix(location, "file:") {
		return location
	}
	p, err := existingPath(strings.TrimRight(location, "/"))
	if err != nil {
		return location
	}
	return filepath.ToSlash(p)
}

// Open implements FileIO. Only regular files open: a directory, a device
// (/dev/zero would never end) or a FIFO (opening it would wait for a
// writer) is ErrNotAFile, checked before the open and again after.
func (l *Local) Open(_ context.Context, location string) (InputFile, error) {
	p, err := LocalPath(location)
	if err != nil {
		return nil, err
	}
	f, st, err := openRegular(p, location)
	if err != nil {
		return nil, err
	}
	if st.Size() <= wholeReadMax {
		return readWhole(f, st.Size(), location)
	}
	return &localInput{File: f, size: st.Size(), loc: location}, nil
}

// wholeReadMax is the size up to which Open reads a file whole and closes
// it at once. Small files are the common case of many commits (one data
// file per INSERT, every manifest and manifest list): one read replaces a
// read per footer, page header and column chunk, and no descriptor stays
// open while a query runs.
const wholeReadMax = 128 << 10

func readWhole(f *os.File, size int64, location string) (InputFile, error) {
	defer f.Close()
	buf := make([]byte, size)
	if _, err := io.ReadFull(f, buf); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = fmt.Errorf("file shrank while being read: %w", err)
		}
		return nil, wrapOS("read", location, err)
	}
	return &memInput{Reader: bytes.NewReader(buf), loc: location}, nil
}

// OpenRegular opens the local file at path for reading if it is a regular
// file (see Local.Open); other errors are *PathErrors too.
func OpenRegular(path string) (*os.File, error) {
	f, _, err := openRegular(path, path)
	return f, err
}

func openRegular(p, location string) (*os.File, fs.FileInfo, error) {
	f, err := openNoWait(p)
	if errors.Is(err, fs.ErrNotExist) {
		if lp := legacyPath(location); lp != "" {
			if lf, lerr := openNoWait(lp); lerr == nil {
				f, err = lf, nil
			}
		}
	}
	if err != nil {
		return nil, nil, wrapOS("open", location, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, wrapOS("stat", location, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &PathError{Op: "open", Location: location, Err: ErrNotAFile}
	}
	return f, st, nil
}

// Create implements FileIO; with NoSync set, Close does not fsync.
func (l *Local) Create(ctx context.Context, location string) (OutputFile, error) {
	return l.create(location, !l.NoSync)
}

// CreateLazy implements LazySyncer.
func (l *Local) CreateLazy(ctx context.Context, location string) (OutputFile, error) {
	return l.create(location, false)
}

// Sync fsyncs the files and each distinct directory once, all at the
// same time: the directories' entries exist already (the files were
// created), and a commit needs both durable, in no particular order,
// before its swap. One round of parallel syncs costs about one journal
// commit where files-then-directories cost two.
func (l *Local) Sync(ctx context.Context, locations []string) error {
	if l.NoSync || len(locations) == 0 {
		return nil
	}
	dirs := map[string]bool{}
	errs := make(chan error, 2*len(locations))
	started := 0
	for _, loc := range locations {
		p, err := LocalPath(loc)
		if err != nil {
			return err
		}
		started++
		go func() { errs <- syncFile(p, loc) }()
		if d := filepath.Dir(p); !dirs[d] {
			dirs[d] = true
			started++
			go func() {
				if err := syncDir(d); err != nil {
					errs <- &PathError{Op: "sync", Location: d, Err: err}
					return
				}
				errs <- nil
			}()
		}
	}
	var first error
	for range started {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return first
	}
	return ctx.Err()
}

func syncFile(p, loc string) error {
	f, err := os.Open(p) // fsync through a read-only descriptor works on Linux and macOS
	if err != nil {
		return wrapOS("sync", loc, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return wrapOS("sync", loc, err)
	}
	return nil
}

func (l *Local) create(location string, sync bool) (OutputFile, error) {
	p, err := LocalPath(location)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, wrapOS("mkdir", location, err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, wrapOS("create", location, err)
	}
	w := writerPool.Get().(*bufio.Writer)
	w.Reset(f)
	return &localOutput{f: f, w: w, loc: location, path: p, sync: sync}, nil
}

// Remove implements FileIO.
func (l *Local) Remove(_ context.Context, location string) error {
	p, err := LocalPath(location)
	if err != nil {
		return err
	}
	err = os.Remove(p)
	if errors.Is(err, fs.ErrNotExist) {
		if lp := legacyPath(location); lp != "" {
			err = os.Remove(lp)
		}
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return wrapOS("remove", location, err)
	}
	return nil
}

// List implements FileIO, walking the directory below prefix lazily.
func (l *Local) List(ctx context.Context, prefix string) iter.Seq2[FileInfo, error] {
	return func(yield func(FileInfo, error) bool) {
		root, err := existingPath(prefix)
		if err != nil {
			yield(FileInfo{}, err)
			return
		}
		uriPrefix := strings.HasPrefix(prefix, "file:")
		errStop := errors.New("stop")
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == root {
					return fs.SkipAll
				}
				return err
			}
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil // removed while listing
				}
				return err
			}
			loc := p
			if uriPrefix { // the form icesql records files in
				loc = filepath.ToSlash(p)
			}
			if !yield(FileInfo{Location: loc, Size: info.Size(), ModTime: info.ModTime()}, nil) {
				return errStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			yield(FileInfo{}, wrapOS("list", prefix, err))
		}
	}
}

func wrapOS(op, location string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &PathError{Op: op, Location: location, Err: ErrNotFound}
	case errors.Is(err, fs.ErrExist):
		return &PathError{Op: op, Location: location, Err: ErrExists}
	}
	return &PathError{Op: op, Location: location, Err: err}
}

type localInput struct {
	*os.File
	size int64
	loc  string
}

func (f *localInput) Size() int64      { return f.size }
func (f *localInput) Location() string { return f.loc }

// memInput is a small file read whole at Open (wholeReadMax).
type memInput struct {
	*bytes.Reader
	loc string
}

func (f *memInput) Close() error     { return nil }
func (f *memInput) Location() string { return f.loc }

type localOutput struct {
	f       *os.File
	w       *bufio.Writer
	loc     string
	path    string
	sync    bool
	written int64
	done    bool
}

func (o *localOutput) Write(p []byte) (int, error) {
	if o.done {
		return 0, &PathError{Op: "write", Location: o.loc, Err: fs.ErrClosed}
	}
	n, err := o.w.Write(p)
	o.written += int64(n)
	if err != nil {
		return n, wrapOS("write", o.loc, err)
	}
	return n, nil
}

func (o *localOutput) Location() string { return o.loc }
func (o *localOutput) Written() int64   { return o.written }

// Close flushes, fsyncs the file and its directory, so that a commit that
// references the file never points at something a crash could lose.
func (o *localOutput) Close() error {
	if o.done {
		return nil
	}
	o.done = true
	err := o.w.Flush()
	o.release()
	if err == nil && o.sync {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && o.sync {
		err = syncDir(filepath.Dir(o.path))
	}
	if err != nil {
		os.Remove(o.path)
		return wrapOS("close", o.loc, err)
	}
	return nil
}

func (o *localOutput) Abort() error {
	if !o.done {
		o.done = true
		o.release()
		o.f.Close()
	}
	if err := os.Remove(o.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return wrapOS("abort", o.loc, err)
	}
	return nil
}

// writerPool recycles the write buffers: a commit creates several small
// files, and a fresh 256 KiB buffer per file was most of its allocation.
var writerPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 256<<10) }}

func (o *localOutput) release() {
	o.w.Reset(nil)
	writerPool.Put(o.w)
	o.w = nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	return nil
}
