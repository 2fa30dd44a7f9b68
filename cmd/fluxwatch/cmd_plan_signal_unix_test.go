//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// plan write-approach interrupted while another writer holds the file's
// lock, which is then released within the grace: it changes nothing and
// prints nothing, since it exits with the signal's status. Before, it wrote
// the approach, printed a success envelope and exited 130.
func TestPlanWriteSignalledWhileLockedWritesNothing(t *testing.T) {
	bin := fluxwatchBin(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "plan", "findings", "shared.yaml")
	release := holdLock(t, file+".lock")
	p := startProc(t, bin, dir, []string{"FLUXWATCH_PLAN_DIR=plan"},
		"plan", "write-approach", "shared", "1", "--description", "d").busy()
	p.cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(100 * time.Millisecond)
	release()
	testfault.Within(t, signalBound, "after the signal", func() { <-p.done })
	if got := p.cmd.ProcessState.ExitCode(); got != 130 {
		t.Errorf("exit status %d, want 130", got)
	}
	if _, err := os.Stat(file); err == nil || p.stdout.String() != "" {
		t.Errorf("a signalled writer wrote %s (%v) and printed %q, want neither", file, err, p.stdout.String())
	}
	ents, _ := os.ReadDir(filepath.Dir(file))
	for _, e := range ents {
		if e.Name() != "shared.yaml.lock" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
