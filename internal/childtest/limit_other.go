//go:build !linux

package childtest

import "testing"

func limitAddressSpace(t *testing.T) {}
