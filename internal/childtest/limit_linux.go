package childtest

import (
	"syscall"
	"testing"
)

func limitAddressSpace(t *testing.T) {
	lim := syscall.Rlimit{Cur: AddrSpace, Max: AddrSpace}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Logf("RLIMIT_AS not set: %v", err)
	}
}
