package testfault

import (
	"testing"
	"time"
)

// Within fails the test when f has not returned after d, naming what: the
// code under test must never block on the fault it is given. f keeps running
// in its goroutine after the failure; a FIFO it waits on can be released with
// [ReleaseFIFO].
func Within(t testing.TB, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still blocked after %v", what, d)
	}
}
