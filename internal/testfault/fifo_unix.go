//go:build unix

package testfault

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Mkfifo makes a FIFO (named pipe) at path with mode 0644, and the
// directories above it that are missing, skipping the test where the FIFO
// cannot be made. When the test ends it releases the FIFO ([ReleaseFIFO]),
// so that no goroutine of the code under test stays blocked in open(2) on
// it. A directory that cannot be made fails the test.
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() { ReleaseFIFO(path) })
}

// ReleaseFIFO opens the FIFO at path for writing without blocking and closes
// it, so that a reader left blocked in open(2) on it (by code that does not
// open it non-blockingly) sees end of file and its goroutine ends.
func ReleaseFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}
