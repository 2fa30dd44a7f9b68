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

// TestGateExplainsItself: a tripped gate says why on stderr, one line per
// reason (the verdict with its top findings, the findings new since the
// baseline); an error verdict warns without a gate and trips one; a gate
// that passes says nothing.
func TestGateExplainsItself(t *testing.T) {
	example := filepath.Join("..", "..", "testdata", "example")
	_, stderr, code := runIn(t, "synth", "--fail-on", "needs-changes", "--no-evidence", "--out", t.TempDir(), example)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != exitGate || len(lines) != 1 ||
		!strings.HasPrefix(lines[0], "fluxwatch: gate --fail-on needs-changes tripped: verdict risky from 4 findings at P1 or above: P0 SAF-01 ") ||
		!strings.Contains(lines[0], "(fd-architecture, fd-quality, fd-safety; web/src/session.ts:18)") ||
		!strings.HasSuffix(lines[0], "; and 1 more (see summary.md)") {
		t.Errorf("--fail-on needs-changes: exit %d, stderr\n%s", code, stderr)
	}

	// Nothing new since a baseline of the same run; one more finding is.
	base := t.TempDir()
	if _, stderr, code := runIn(t, "synth", "-q", "--no-evidence", "--out", base, example); code != exitOK {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runIn(t, "synth", "--fail-on-new", "P1", "--baseline", filepath.Join(base, "findings.json"), "--no-evidence", "--out", t.TempDir(), example)
	if code != exitOK || stderr != "" {
		t.Errorf("nothing new: exit %d, stderr %q", code, stderr)
	}
	run := t.TempDir()
	if err := copyTree(run, example); err != nil {
		t.Fatal(err)
	}
	extra := "### Findings Index\n- P1 | NEW-001 | \"Cache\" | Stale entries served after logout | api/cache.go:9\nVerdict: needs-changes\n"
	if err := os.WriteFile(filepath.Join(run, "fd-cache.md"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runIn(t, "synth", "--fail-on-new", "P1", "--baseline", filepath.Join(base, "findings.json"), "--no-evidence", "--out", t.TempDir(), run)
	want := "fluxwatch: gate --fail-on-new P1 tripped: 1 new finding since the baseline " + filepath.Join(base, "findings.json") +
		": P1 NEW-001 Stale entries served after logout (fd-cache; api/cache.go:9)\n"
	if code != exitGate || stderr != want {
		t.Errorf("one new: exit %d, stderr\n%q\nwant\n%q", code, stderr, want)
	}

	// Nothing reviewed: a warning without a gate, a reason with one.
	empty := t.TempDir()
	_, stderr, code = runIn(t, "synth", "--expect", "fd-a", "--out", t.TempDir(), empty)
	if code != exitOK || stderr != "fluxwatch: warning: verdict error: none of 1 agent completed, so nothing was reviewed (1 failed: fd-a); no gate is set (--fail-on none), so nothing trips on it\n" {
		t.Errorf("error verdict, no gate: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runIn(t, "synth", "--fail-on", "risky", "--out", t.TempDir(), empty)
	if code != exitGate || stderr != "fluxwatch: gate --fail-on risky tripped: verdict error: no agent report was found, so nothing was reviewed\n" {
		t.Errorf("error verdict, gate: exit %d, stderr %q", code, stderr)
	}
}
