//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// TestWatchRunDirectoryRemoved: a run directory removed under watch is not
// made again by it (before, the next change wrote summary.md and
// findings.json into a new directory at the path). watch says so once,
// writes nothing while it is gone, says the scan error once rather than at
// every rescan, and writes the reports again once an orchestrator makes
// the directory again. Removed at the end, its final reports are not
// written: watch says so and exits with the signal's status.
func TestWatchRunDirectoryRemoved(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	os.Mkdir(dir, 0o755)
	w := startProc(t, fluxwatchBin(t), root, nil, "watch", "--rescan", "100ms", "--no-evidence", "run")
	w.fileExists(t, filepath.Join(dir, "findings.json"))
	removeDir(t, dir)
	w.stdoutHas(t, "output directory removed: no reports are written until it is made again")
	time.Sleep(500 * time.Millisecond) // five rescans
	if _, err := os.Stat(dir); err == nil {
		t.Fatalf("watch made the removed run directory again: %v", dir)
	}
	if n := strings.Count(w.stdout.String(), "stat run: no such file or directory"); n != 1 {
		t.Errorf("the failed scan said %d times, want once:\n%s", n, w.stdout.String())
	}

	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "fd-a.md"), []byte("### Findings Index\nVerdict: safe\n"), 0o644)
	w.fileExists(t, filepath.Join(dir, "summary.md"))

	removeDir(t, dir)
	w.waitFor(t, "the second removal said", func() bool {
		return strings.Count(w.stdout.String(), "output directory removed:") == 2
	})
	w.cmd.Process.Signal(syscall.SIGTERM)
	testfault.Within(t, signalBound, "watch after SIGTERM, its directory gone", func() { <-w.done })
	if code := w.cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(w.stderr.String(), "the final reports are not written") {
		t.Errorf("watch exited %d, stderr %q; want 143 and why no final reports", code, w.stderr.String())
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the final reports made the removed run directory again")
	}
}

// removeDir removes dir and what it holds, again while a writer (the watch)
// adds a file to it meanwhile ("directory not empty").
func removeDir(t *testing.T, dir string) {
	t.Helper()
	var err error
	for range 100 {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal(err)
}
