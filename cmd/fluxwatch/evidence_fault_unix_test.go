//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestEvidenceRepoFIFORefused: a --repo that is a FIFO is refused at once by
// check --evidence and synth, exit 2, with one line naming it (SPEC §7),
// rather than waiting for a writer forever.
func TestEvidenceRepoFIFORefused(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	report := filepath.Join(run, "fd-a.md")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(report, []byte(evidenceReport(evidenceFinding("EV-001", "Cited file", "a.go:1", ""))), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "repo")
	testfault.Mkfifo(t, fifo)
	for _, args := range [][]string{
		{"check", "--evidence", "--repo", fifo, report},
		{"synth", "--repo", fifo, "--out", filepath.Join(dir, "out"), run},
	} {
		code, stderr := runWithin(t, 2*time.Second, args...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, fifo+": not a directory (a FIFO)") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line naming the FIFO", strings.Join(args, " "), code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("synth --repo FIFO wrote an output directory")
	}
}
