// Package childtest runs a test's hostile part in a child process (the
// test binary again) whose stack and memory are capped, so that a
// regression that overflows the stack or exhausts memory fails one test
// instead of taking the machine, or the test run, down.
package childtest

import (
	"os"
	"os/exec"
	"runtime/debug"
	"testing"
)

const envChild = "ICESQL_CHILD_TEST"

// Limits of the child process.
const (
	MaxStack  = 256 << 20 // bytes of goroutine stack (Go's default is 1 GiB)
	MemLimit  = "1GiB"    // GOMEMLIMIT: the garbage collector works hard past it
	AddrSpace = 8 << 30   // RLIMIT_AS where the platform has it: allocations fail past it
)

// Run runs body in a child process running only the calling test (name
// is its -test.run pattern) and fails t if the child fails or dies. In
// the child, Run caps the stack and memory, then calls body.
func Run(t *testing.T, name string, body func(t *testing.T)) {
	t.Helper()
	if os.Getenv(envChild) == name {
		debug.SetMaxStack(MaxStack)
		limitAddressSpace(t)
		body(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), envChild+"="+name, "GOMEMLIMIT="+MemLimit)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child process: %v\n%s", err, tail(out, 8000))
	}
	if testing.Verbose() {
		t.Logf("child process:\n%s", tail(out, 4000))
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
