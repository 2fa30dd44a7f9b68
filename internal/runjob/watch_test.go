package runjob

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/watcher"
)

// TestWatchEvents: watch --events --until-complete on a finished run
// writes the reports, prints a hello record first and a final one last
// whose status is the gate's, and ends with that status.
func TestWatchEvents(t *testing.T) {
	for _, tc := range []struct {
		failOn string
		status int
	}{{"needs-changes", StatusGate}, {"risky", StatusOK}} {
		t.Run(tc.failOn, func(t *testing.T) {
			var w world
			run := t.TempDir()
			o := w.options(t, run)
			o.Command, o.FailOn = "watch", tc.failOn
			o.Watch = WatchOptions{Events: true, UntilComplete: true, Settle: 10 * time.Millisecond,
				Debounce: 10 * time.Millisecond, Poll: 20 * time.Millisecond}
			o.Expect = []string{"fd-a"}
			writeFiles(t, run, map[string]string{"fd-a.md": needsChanges})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := Watch(ctx, o); status(err) != tc.status {
				t.Fatalf("Watch: %v (status %d), want status %d", err, status(err), tc.status)
			}
			lines := strings.Split(strings.TrimSpace(w.stdout.String()), "\n")
			var first, last watcher.Event
			if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.Type != watcher.EventHello {
				t.Fatalf("first line %q (%v): want the hello record", lines[0], err)
			}
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Type != watcher.EventFinal {
				t.Fatalf("last line %q (%v): want the final record", lines[len(lines)-1], err)
			}
			if last.ExitStatus == nil || *last.ExitStatus != tc.status {
				t.Errorf("final exit_status %v, want %d", last.ExitStatus, tc.status)
			}
			if _, err := os.Stat(filepath.Join(run, "findings.json")); err != nil {
				t.Errorf("findings.json: %v", err)
			}
		})
	}
}

// TestWatchUsage: durations below 0 and a run directory that is not one
// are input errors, before anything is read.
func TestWatchUsage(t *testing.T) {
	var w world
	o := w.options(t, filepath.Join(t.TempDir(), "missing"))
	o.Command = "watch"
	if err := Watch(context.Background(), o); status(err) != StatusInput || !strings.Contains(err.Error(), "watch: output directory ") {
		t.Errorf("Watch(missing dir): %v, want an input error naming it", err)
	}
	o.Dir = t.TempDir()
	o.Watch.Settle = -time.Second
	if err := Watch(context.Background(), o); status(err) != StatusInput || !strings.Contains(err.Error(), "watch: --settle -1s: want a duration of 0 or more") {
		t.Errorf("Watch(--settle -1s): %v, want an input error", err)
	}
}
