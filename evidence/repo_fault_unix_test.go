//go:build unix

package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// mkfifo makes a FIFO at path and, when the test ends, opens it for writing
// and closes it, so that code left blocked in open(2) on it returns. (It is
// internal/testfault's Mkfifo, which evidence's tests may not import: see
// TestImportsFollowTheFlow.)
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
}

// within fails the test when f has not returned after d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still blocked after %v", what, d)
	}
}

// TestOpenRepositoryFIFO: a repository that is a FIFO (--repo given one) is
// refused at once with an error naming it and saying what it is, never
// waited on; so is a repository swapped for a FIFO after Open, whose claims
// are skipped.
func TestOpenRepositoryFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "repo")
	mkfifo(t, fifo)
	within(t, 2*time.Second, "Open of a FIFO", func() {
		_, err := Open(fifo, Options{})
		if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a directory (a FIFO)") {
			t.Errorf("Open(FIFO) = %v, want an error naming it as a FIFO", err)
		}
	})

	repo := filepath.Join(dir, "swapped")
	write(t, filepath.Join(repo, "a.go"), "package a\n")
	v, err := Open(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(repo); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, repo)
	within(t, 2*time.Second, "Check of a repository swapped for a FIFO", func() {
		r := v.Check([]parse.Claim{{Path: "a.go", Start: 1, End: 1}})[0]
		if r.Status != parse.EvidenceSkipped || !strings.Contains(r.Note, "a FIFO") {
			t.Errorf("swapped for a FIFO: %s (%s), want skipped", r.Status, r.Note)
		}
	})
}
