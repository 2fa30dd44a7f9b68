//go:build unix

package watcher

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/synth"
)

// TestFIFOBusNeverBlocks: a FIFO named like the bus is never opened for a
// blocking read: Synthesize and Scan (with the bus) refuse it or skip it with
// a message naming it, and a Watcher goes on without hanging on it. Each
// fails by timeout if anything blocks.
func TestFIFOBusNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-a.md", "### Findings Index\n- P1 | AR-001 | \"S\" | t\nVerdict: needs-changes\n", 0)
	testfault.Mkfifo(t, filepath.Join(dir, "peer-findings.jsonl"))
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
	testfault.Within(t, 3*time.Second, "Synthesize", func() {
		s, err := Synthesize(context.Background(), dir, ScanOptions{}, synth.Options{})
		var ds []synth.Diagnostic
		if s != nil {
			ds = s.Diagnostics
		}
		mentions("Synthesize", err, s, ds)
	})
	testfault.Within(t, 3*time.Second, "Scan with the bus", func() {
		_, err := Scan(context.Background(), dir, ScanOptions{})
		_ = err // refused or listed and skipped: either way, not blocked
	})
	testfault.Within(t, 3*time.Second, "Watcher", func() {
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
