package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGateNamesUnreadableReports: the line that says why a gate tripped on
// reports that could not be fully read names the first five, then how many
// more, on one line whatever their number; -q says nothing.
func TestGateNamesUnreadableReports(t *testing.T) {
	run := t.TempDir()
	for i := range 7 {
		body := fmt.Sprintf("# Audit %d\n\nThe session store leaks tokens.\n\n**Verdict:** risky\n", i)
		if err := os.WriteFile(filepath.Join(run, fmt.Sprintf("audit-%d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := runIn(t, "synth", "--fail-on", "risky", "--no-evidence", "--out", t.TempDir(), run)
	want := "fluxwatch: gate --fail-on risky tripped: 7 reports could not be fully read (audit-0.md, audit-1.md, audit-2.md, " +
		"audit-3.md, audit-4.md, and 2 more); --allow-unreadable lets the gate pass them\n"
	if code != exitGate || stderr != want {
		t.Errorf("exit %d, stderr\n%q\nwant exit %d and\n%q", code, stderr, exitGate, want)
	}
	_, stderr, code = runIn(t, "synth", "-q", "--fail-on", "risky", "--no-evidence", "--out", t.TempDir(), run)
	if code != exitGate || stderr != "" {
		t.Errorf("-q: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runIn(t, "synth", "--fail-on", "risky", "--allow-unreadable", "--no-evidence", "--out", t.TempDir(), run)
	if code != exitOK || strings.Contains(stderr, "could not be fully read") {
		t.Errorf("--allow-unreadable: exit %d, stderr %q", code, stderr)
	}
}
