//go:build !unix

package testfault

import "testing"

// Mkfifo skips the test: there are no FIFOs on this system.
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	t.Skipf("mkfifo %s: no FIFOs on this system", path)
}

// ReleaseFIFO does nothing: there are no FIFOs on this system.
func ReleaseFIFO(string) {}
