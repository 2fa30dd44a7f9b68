//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// plan write-approach interrupted while another writer holds the file's
// lock, which is then released within the grace: it changes nothing and
// prints nothing, since it exits with the signal's status. Before, it wrote
// the approach, printed a success envelope and exited 130.
func TestPlanWriteSignalledWhileLockedWritesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plan", "findings", "shared.yaml")
	p := signalWhileLocked(t, file+".lock", dir, []string{"FLUXWATCH_PLAN_DIR=plan"},
		"plan", "write-approach", "shared", "1", "--description", "d")
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
