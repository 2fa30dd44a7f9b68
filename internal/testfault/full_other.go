//go:build !linux

package testfault

import "testing"

// SmallFS skips the test: a small tmpfs is mounted on Linux only.
func SmallFS(t testing.TB, size int) string {
	t.Helper()
	t.Skip("no small tmpfs on this system")
	return ""
}
