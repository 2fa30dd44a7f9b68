package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Out of inotify watches, watch polls: a new report is still seen with
// --rescan 0 (SPEC §10). The exhaustion is real: fluxwatch runs in a user
// namespace of its own whose inotify watch limit
// (/proc/sys/user/max_inotify_watches) is 1, so that it gets a watch for
// the run's parent directory and none for the run; the limit of the
// machine, shared with every other process of the user, is not touched.
// The test skips where user namespaces cannot be made. Before, the run
// directory was "read every rescan": with --rescan 0, never.
func TestWatchInotifyExhausted(t *testing.T) {
	if err := exec.Command("unshare", "-U", "-r", "sh", "-c", "echo 1 >/proc/sys/user/max_inotify_watches").Run(); err != nil {
		t.Skipf("no user namespace with its own inotify limit: %v", err)
	}
	bin, dir, runDir, r, w := pipedRun(t)
	r.Close()
	w.Close()
	out := filepath.Join(dir, "out")
	const script = `echo 1 >/proc/sys/user/max_inotify_watches && exec "$0" "$@"`
	p := startProc(t, "unshare", dir, nil, "-U", "-r", "sh", "-c", script, bin,
		"watch", "--no-evidence", "--events", "--rescan", "0", "--out", out, runDir)
	findings := filepath.Join(out, "findings.json")
	p.fileExists(t, findings)
	p.stdoutHas(t, "no space left on device")
	os.WriteFile(filepath.Join(runDir, "fd-late.md"), []byte("### Findings Index\n- P1 | L-001 | \"Auth\" | Seen without an event\nVerdict: needs-changes\n"), 0o644)
	start := time.Now()
	p.waitFor(t, "the new report in findings.json", func() bool {
		data, _ := os.ReadFile(findings)
		return strings.Contains(string(data), "Seen without an event")
	})
	t.Logf("a new report seen %v after it was written, out of watches", time.Since(start))
	if !strings.Contains(p.stdout.String(), "reading it every 500ms instead") {
		t.Errorf("no event says the run is polled:\n%s", p.stdout.String())
	}
}
