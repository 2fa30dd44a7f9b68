//go:build !linux

package testfault

import (
	"os"
	"testing"
)

// OpenPTY skips the test: pseudo-terminals are opened only on Linux.
func OpenPTY(t testing.TB, cols, rows uint16) (ptmx, pts *os.File) {
	t.Helper()
	t.Skipf("no %d×%d pseudo-terminal: opened only on Linux", cols, rows)
	return nil, nil
}
