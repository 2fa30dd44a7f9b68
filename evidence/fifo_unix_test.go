//go:build unix

package evidence

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// TestFIFO: a FIFO in the repository is skipped, not waited on.
func TestFIFO(t *testing.T) {
	repo := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(repo, "pipe.go"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	v, err := Open(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := v.Check([]parse.Claim{{Path: "pipe.go", Start: 1, End: 1}})[0]
	if r.Status != parse.EvidenceSkipped || r.Note != "not a regular file: not read" {
		t.Errorf("FIFO: %s (%s), want skipped", r.Status, r.Note)
	}
}
