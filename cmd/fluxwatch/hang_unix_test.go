//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// A reader of `watch --events` that stops reading (a paused orchestrator, a
// pipe nobody drains) never stops the reports, and a signal then still
// writes the final ones (SPEC §10). The attack: the events go to a pipe
// that is never read while 300 bus entries arrive one by one (some 150 KB
// of events, over twice the 64 KiB a pipe holds), then SIGTERM. Before,
// the watch blocked in its first write past the pipe's capacity:
// findings.json froze (18 of 300 entries) and SIGTERM ended the process
// 750 ms later without final reports.
func TestWatchPausedReader(t *testing.T) {
	bin, dir, runDir, r, w := pipedRun(t)
	defer r.Close()
	out := filepath.Join(dir, "out")
	p := startProcOn(t, w, bin, dir, nil, "watch", "--no-evidence", "--events", "--out", out, runDir)
	w.Close() // the process holds it now; r is never read until the end
	findings := filepath.Join(out, "findings.json")
	p.fileExists(t, findings)

	const entries = 300
	bus, err := os.OpenFile(filepath.Join(runDir, "peer-findings.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 400)
	for i := range entries {
		fmt.Fprintf(bus, `{"severity":"notable","agent":"fd-p","category":"c","summary":"entry %d %s","file_refs":[]}`+"\n", i, pad)
		time.Sleep(2 * time.Millisecond)
	}
	bus.Close()
	total := entries + 1 // and smallRun's one
	for deadline := time.Now().Add(30 * time.Second); timelineTotal(findings) != total; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("findings.json holds %d of the %d bus entries 30 s after they were written, the reader paused",
				timelineTotal(findings), total)
		}
	}
	// A report that lands as the signal comes: the final reports hold it.
	os.WriteFile(filepath.Join(runDir, "fd-z.md"), []byte("### Findings Index\n- P2 | Z-001 | \"Late\" | Written at the signal\nVerdict: needs-changes\n"), 0o644)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	testfault.Within(t, 5*time.Second, "watch after SIGTERM with its reader paused", func() { <-p.done })
	t.Logf("exited %v after SIGTERM: %v", time.Since(start), p.cmd.ProcessState)
	if code := p.cmd.ProcessState.ExitCode(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit %d, want 143; stderr %q", code, p.stderr.String())
	}
	data, err := os.ReadFile(findings)
	if err != nil || !strings.Contains(string(data), "Written at the signal") || timelineTotal(findings) != total {
		t.Errorf("the final findings.json lacks fd-z's finding or the bus (%d entries): %v", timelineTotal(findings), err)
	}
	// What the reader gets when it reads again: whole JSON lines, the hello
	// record first.
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var ev struct{ Type string }
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("event line %d is not whole JSON: %v\n%q", n+1, err, sc.Text())
		}
		if n == 0 && ev.Type != "hello" {
			t.Errorf("first event %q, want hello", ev.Type)
		}
		n++
	}
	t.Logf("the reader got %d events after the watch ended", n)
}
