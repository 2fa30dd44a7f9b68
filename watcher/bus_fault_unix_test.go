//go:build unix

package watcher

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/synth"
)

// TestFIFOBusNeverBlocks: a FIFO named like the bus is never opened for a
// blocking read: Synthesize and Scan (with the bus) refuse it or skip it with
// a message naming it, and a Watcher goes on without hanging on it. Each
// fails by timeout if anything blocks.
func TestFIFOBusNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-a.md", "### Findings Index\n- P1 | AR-001 | \"S\" | t\nVerdict: needs-changes\n", 0)
	if err := syscall.Mkfifo(filepath.Join(dir, "peer-findings.jsonl"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within := func(what string, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { defer close(done); f() }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: still blocked after 3 s on a FIFO bus", what)
		}
	}
	mentions := func(what string, err error, s *synth.Synthesis, ds []synth.Diagnostic) {
		t.Helper()
		if err != nil {
			if !strings.Contains(err.Error(), "peer-findings.jsonl") {
				t.Errorf("%s: err = %v, want it to name the bus", what, err)
			}
			return
		}
		for _, d := range ds {
			if strings.Contains(d.File+d.Message, "peer-findings.jsonl") {
				return
			}
		}
		t.Errorf("%s: no error and no diagnostic names the FIFO bus: %+v", what, ds)
	}
	within("Synthesize", func() {
		s, err := Synthesize(context.Background(), dir, ScanOptions{}, synth.Options{})
		var ds []synth.Diagnostic
		if s != nil {
			ds = s.Diagnostics
		}
		mentions("Synthesize", err, s, ds)
	})
	within("Scan with the bus", func() {
		_, err := Scan(context.Background(), dir, ScanOptions{})
		_ = err // refused or listed and skipped: either way, not blocked
	})
	within("Watcher", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		w := New(dir, Options{})
		got := make(chan *Update, 10)
		go w.Run(ctx, func(u *Update) error {
			select {
			case got <- u:
			default:
			}
			return nil
		})
		select {
		case <-got:
		case <-ctx.Done():
			t.Errorf("Watcher: no update within 2 s of starting beside a FIFO bus")
		}
	})
	if _, err := os.Stat(filepath.Join(dir, "peer-findings.jsonl.lock")); err == nil {
		t.Errorf("a reader made the bus's lock file")
	}
}
