//go:build unix

package evidence

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/parse"
)

// TestOpenRepositoryFIFO: a repository that is a FIFO (--repo given one) is
// refused at once with an error naming it and saying what it is, never
// waited on; so is a repository swapped for a FIFO after Open, whose claims
// are skipped.
func TestOpenRepositoryFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "repo")
	testfault.Mkfifo(t, fifo)
	testfault.Within(t, 2*time.Second, "Open of a FIFO", func() {
		_, err := Open(fifo, Options{})
		if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a directory (a FIFO)") {
			t.Errorf("Open(FIFO) = %v, want an error naming it as a FIFO", err)
		}
	})

	repo := filepath.Join(dir, "swapped")
	v := openRemoved(t, repo)
	testfault.Mkfifo(t, repo)
	testfault.Within(t, 2*time.Second, "Check of a repository swapped for a FIFO", func() {
		r := v.Check([]parse.Claim{{Path: "a.go", Start: 1, End: 1}})[0]
		if r.Status != parse.EvidenceSkipped || !strings.Contains(r.Note, "a FIFO") {
			t.Errorf("swapped for a FIFO: %s (%s), want skipped", r.Status, r.Note)
		}
	})
}
