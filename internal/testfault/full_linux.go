package testfault

import (
	"strconv"
	"syscall"
	"testing"
)

// SmallFS returns a directory on a tmpfs of size bytes (at least a page)
// mounted for the test and unmounted when it ends: a disk that fills up.
// It skips the test where one cannot be mounted (not root, no mount
// namespace).
func SmallFS(t testing.TB, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		t.Skipf("cannot mount a small tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}
