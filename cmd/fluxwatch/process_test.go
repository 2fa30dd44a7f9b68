package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/cmdtest"
)

// syncBuffer is a bytes.Buffer that a goroutine or a process writes while
// the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls out every 10 ms until it holds s, failing after 20 s with
// what it holds.
func waitFor(t *testing.T, out *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output:\n%q", s, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// benchFluxwatch skips the test unless FLUXWATCH_BENCH is set (as the make
// target does), else builds the real fluxwatch for it to measure, or
// takes the binary FLUXWATCH_BENCH_BIN names (to compare two builds).
func benchFluxwatch(t *testing.T, target string) string {
	t.Helper()
	if os.Getenv("FLUXWATCH_BENCH") == "" {
		t.Skipf("set FLUXWATCH_BENCH=1 (make %s)", target)
	}
	if bin := os.Getenv("FLUXWATCH_BENCH_BIN"); bin != "" {
		return bin // a binary built before, to compare two side by side
	}
	return cmdtest.Build(t)
}

// testBinaryAsFluxwatch returns a link named fluxwatch to the test binary
// itself, which TestMain then runs as the fluxwatch command (mainStatus, as
// main does): a process without a build.
func testBinaryAsFluxwatch(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary to run: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "fluxwatch")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// smallRun writes a run directory with one completed report.
func smallRun(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "fd-a.md"), []byte("### Findings Index\n- P1 | A-1 | \"Auth\" | Tokens in localStorage\nVerdict: needs-changes\n<!-- flux-drive:complete -->\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "peer-findings.jsonl"), []byte(`{"severity":"notable","agent":"fd-b","category":"db","summary":"N+1","file_refs":[]}`+"\n"), 0o644)
}

// timelineTotal returns the number of bus entries findings.json at path
// counts, or -1.
func timelineTotal(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	var s struct {
		Timeline *struct {
			Total int `json:"total_entries"`
		} `json:"timeline"`
	}
	if json.Unmarshal(data, &s) != nil || s.Timeline == nil {
		return -1
	}
	return s.Timeline.Total
}
