package termview

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

var updateView = flag.Bool("update-view", false, "rewrite testdata/view/*.golden")

// viewUpdate is a run in the middle of a review: one agent done, one
// writing, one failed, one expected and not started, a few bus entries.
func viewUpdate() *watcher.Update {
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	f := func(sev parse.Severity, id, section, title string) parse.Finding {
		return parse.Finding{Severity: sev, ID: id, Section: section, Title: title, Line: 2}
	}
	run := &synth.Run{Input: "runs/review", ID: "7c1e2f60-4b7d-4f0e-9a51-2d8c6b9e0a13", Agents: []synth.Agent{
		{Name: "fd-safety", File: "fd-safety.md", Status: parse.StatusVariant, ModTime: base.Add(time.Minute),
			Report: &parse.Report{Status: parse.StatusVariant, Findings: []parse.Finding{
				f(parse.P0, "SAF-01", "Session Management", "Session tokens in localStorage exposed to XSS"),
				f(parse.P2, "SAF-03", "API Design", "Login endpoint lacks rate limiting")}}},
		{Name: "fd-architecture", File: "fd-architecture.md", Status: parse.StatusValid, ModTime: base.Add(80 * time.Second),
			Report: &parse.Report{Status: parse.StatusValid, Findings: []parse.Finding{
				f(parse.P1, "AR-001", "Session Management", "Session tokens stored in localStorage are readable by any script with a very long title that does not fit"),
				f(parse.P1, "AR-002", "API Design", "Login endpoint has no rate limiting")}}},
		{Name: "fd-quality", File: "fd-quality.md.partial", Status: parse.StatusPartial,
			Report: &parse.Report{Status: parse.StatusPartial, Findings: []parse.Finding{f(parse.P1, "Q-1", "Auth", "Tokens")}}},
		{Name: "fd-performance", File: "fd-performance.md", Status: parse.StatusError, Report: &parse.Report{Status: parse.StatusError},
			Diagnostics: []parse.Diagnostic{{Level: parse.LevelError, Message: "error stub: the index says Verdict: error"}}},
	}, Bus: []synth.BusFile{{Name: "peer-findings.jsonl", Entries: []bus.Entry{
		{Severity: bus.Blocking, Agent: "fd-safety", Summary: "Session tokens stored in localStorage", Timestamp: "2026-11-20T10:00:20Z", Line: 1},
		{Severity: bus.Notable, Agent: "fd-architecture", Summary: "Auth middleware\nreaches into billing", Timestamp: "2026-11-20T10:00:40Z", Line: 2},
		{Kind: bus.EntryStall, Severity: "warn", Agent: "fd-quality", Summary: "no output for 5 minutes", Line: 3},
	}}}}
	s := synth.Synthesize(run, synth.Options{Watching: true, Expect: []string{"fd-user-product"}})
	return &watcher.Update{Time: base.Add(90 * time.Second), Started: base, Synthesis: s, Agents: map[string]watcher.AgentTimes{
		"fd-safety":       {FirstSeen: base, Done: base.Add(time.Minute)},
		"fd-architecture": {FirstSeen: base, Done: base.Add(80 * time.Second)},
		"fd-quality":      {FirstSeen: base.Add(5 * time.Second), Stalled: true},
		"fd-performance":  {FirstSeen: base, Done: base},
	}}
}

// TestLiveViewFrame compares frames of the live view with golden files: a
// roomy terminal without colour, a small one with colour.
func TestLiveViewFrame(t *testing.T) {
	local := time.Local
	time.Local = time.UTC // clocks in the frame are local time
	defer func() { time.Local = local }()
	for _, tt := range []struct {
		name       string
		cols, rows int
		color      bool
	}{
		{"roomy", 100, 40, false},
		{"small-color", 60, 16, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := viewUpdate()
			v := New(io.Discard, Options{Color: tt.color, Dir: "runs/review", Size: func() (int, int) { return tt.cols, tt.rows }})
			v.Draw(u, watcher.NewDiffer().Diff(u)) // fills the recent events
			got := []byte(strings.Join(v.frame(u, tt.cols, tt.rows), "\n") + "\n")
			path := filepath.Join("testdata", "view", tt.name+".golden")
			if *updateView {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-view to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("frame differs from %s (rerun with -update-view and review the diff):\n%s", path, got)
			}
			lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
			if len(lines) > tt.rows {
				t.Errorf("%d lines for %d rows", len(lines), tt.rows)
			}
			for _, l := range lines {
				if n := width(stripANSI(l)); n > tt.cols {
					t.Errorf("line of %d cells for %d columns: %q", n, tt.cols, l)
				}
			}
			if !tt.color && strings.Contains(string(got), "\x1b") {
				t.Errorf("escape sequences without colour")
			}
		})
	}
}

// countingWriter counts Write calls.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// TestLiveViewDraw: each frame is one write that starts at the top left,
// clears each line's end and the screen below, never the whole screen; the
// first switches to the alternate screen and close switches back.
func TestLiveViewDraw(t *testing.T) {
	w := &countingWriter{}
	v := New(w, Options{Dir: "d"})
	u := viewUpdate()
	v.Draw(u, nil)
	if w.writes != 1 {
		t.Errorf("first frame in %d writes", w.writes)
	}
	first := w.String()
	if !strings.HasPrefix(first, csiAltOn+csiHome) || !strings.HasSuffix(first, csiClearLine+csiClearBelow) {
		t.Errorf("first frame = %q…%q", first[:min(20, len(first))], first[max(0, len(first)-20):])
	}
	if strings.Contains(first, "\x1b[2J") {
		t.Errorf("a full clear")
	}
	if n := strings.Count(first, csiClearLine); n != strings.Count(first, "\n")+1 {
		t.Errorf("%d line clears for %d lines", n, strings.Count(first, "\n")+1)
	}
	w.Reset()
	v.Draw(u, nil)
	if w.writes != 2 || !strings.HasPrefix(w.String(), csiHome) {
		t.Errorf("second frame: %d writes in all, starts %q", w.writes, w.String()[:min(10, w.Len())])
	}
	w.Reset()
	v.Close()
	if w.String() != csiAltOff {
		t.Errorf("close wrote %q", w.String())
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 45 * time.Second: "45s", 187 * time.Second: "3m07s", 62 * time.Minute: "1h02m", -time.Second: "0s",
	} {
		if got := elapsed(d); got != want {
			t.Errorf("elapsed(%v) = %q, want %q", d, got, want)
		}
	}
}
