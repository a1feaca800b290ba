// Package s3test starts a throwaway S3-compatible server for tests:
// versitygw (Apache-2.0, pure Go, from the Go module proxy) serving a
// temporary directory on a free loopback port, stopped when the test
// binary ends (Main). The binary comes from ICESQL_VERSITYGW, PATH, or
// the user cache (built there once with `go install`; .ci/run builds it
// ahead). Tests skip with a message when it can't be had, unless
// ICESQL_REQUIRE_S3=1 (CI), where that is a failure.
package s3test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
)

// Version is the versitygw release the tests run against.
const Version = "v1.8.0"

const (
	accessKey = "icesqltest"
	secretKey = "icesqltestsecret"
)

type server struct {
	dir      string
	endpoint string
	cmd      *exec.Cmd
	err      error
}

var errStopped = errors.New("stopped")

var (
	once    sync.Once
	shared  *server
	counter atomic.Int64
)

// Main runs the tests and stops the server if one was started.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the server if one was started, for a TestMain that starts
// several kinds.
func Stop() {
	if shared != nil && shared.err == nil {
		shared.stop()
		shared.err = errStopped
	}
}

// Store is one new, empty bucket on the shared server.
type Store struct {
	Endpoint string
	Bucket   string
	// Props are the FileIO properties that reach the bucket (s3.endpoint,
	// keys, path-style access), as a DSN or catalog passes them.
	Props map[string]string
}

// Warehouse is s3://bucket/prefix.
func (s Store) Warehouse(prefix string) string { return "s3://" + s.Bucket + "/" + prefix }

// Bucket creates a new bucket, starting the server on first use.
func Bucket(t testing.TB) Store {
	t.Helper()
	once.Do(func() { shared = start() })
	if shared.err != nil {
		if os.Getenv("ICESQL_REQUIRE_S3") == "1" {
			t.Fatalf("s3 server: %v", shared.err)
		}
		t.Skipf("s3 server not available: %v (set ICESQL_VERSITYGW to a versitygw binary, or let the test build it with network access)", shared.err)
	}
	name := fmt.Sprintf("t%d-%d", os.Getpid(), counter.Add(1))
	st := Store{Endpoint: shared.endpoint, Bucket: name, Props: map[string]string{
		s3io.PropEndpoint: shared.endpoint, s3io.PropAccessKeyID: accessKey,
		s3io.PropSecretAccessKey: secretKey, s3io.PropPathStyle: "true", s3io.PropRegion: "us-east-1",
	}}
	cfg, err := s3io.ConfigFromProperties(st.Props)
	if err != nil {
		t.Fatal(err)
	}
	fio, err := s3io.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fio.Client().CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("s3 server: create bucket %s: %v", name, err)
	}
	return st
}

// Binary finds or builds the versitygw binary.
func Binary() (string, error) {
	if p := os.Getenv("ICESQL_VERSITYGW"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "icesql", "versitygw-"+Version)
	bin := filepath.Join(dir, "versitygw")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Several test binaries may get here at once: one builds, the others
	// wait on the lock and find the binary.
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	cmd := exec.Command("go", "install", "github.com/versity/versitygw/cmd/versitygw@"+Version)
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build versitygw %s: %v: %s", Version, err, out)
	}
	return bin, nil
}

func start() *server {
	s := &server{}
	bin, err := Binary()
	if err != nil {
		s.err = err
		return s
	}
	if s.dir, s.err = os.MkdirTemp("", "icesql-s3-"); s.err != nil {
		return s
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.err = err
		return s
	}
	addr := l.Addr().String()
	l.Close()
	s.endpoint = "http://" + addr
	s.cmd = exec.Command(bin, "--access", accessKey, "--secret", secretKey, "--port", addr,
		"--quiet", "--health", "/health", "posix", s.dir)
	s.cmd.Stdout, s.cmd.Stderr = nil, nil
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the tests
	if s.err = s.cmd.Start(); s.err != nil {
		return s
	}
	for range 2400 { // until it answers (2 minutes): a loaded machine may take seconds
		resp, err := http.Get(s.endpoint + "/health")
		if err == nil {
			resp.Body.Close()
			return s
		}
		if s.cmd.ProcessState != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	s.err = fmt.Errorf("versitygw did not answer on %s", addr)
	return s
}

func (s *server) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
			<-done
		}
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}
