package termview

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
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
// roomy terminal without colour, a small one with colour, and a run of CJK
// and emoji text at 60, 80 and 120 columns. Every line stays within the
// terminal's columns and rows; the wide run lists "… and N more" for the
// findings it leaves out and shows each agent's acknowledgements.
func TestLiveViewFrame(t *testing.T) {
	local := time.Local
	time.Local = time.UTC // clocks in the frame are local time
	defer func() { time.Local = local }()
	for _, tt := range []struct {
		name       string
		update     func() *watcher.Update
		dir        string
		cols, rows int
		color      bool
		events     bool // draw the first frame with the Differ's events
	}{
		{"roomy", viewUpdate, "runs/review", 100, 40, false, true},
		{"small-color", viewUpdate, "runs/review", 60, 16, true, true},
		{"wide-60", wideUpdate, "runs/レビュー", 60, 40, false, false},
		{"wide-80", wideUpdate, "runs/レビュー", 80, 40, false, false},
		{"wide-120", wideUpdate, "runs/レビュー", 120, 40, false, false},
		{"unreadable", unreadUpdate, "runs/review", 100, 30, false, false},
		{"unreadable-small-color", unreadUpdate, "runs/review", 60, 16, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.update()
			v := New(io.Discard, Options{Color: tt.color, Dir: tt.dir, Size: func() (int, int) { return tt.cols, tt.rows }})
			var events []watcher.Event
			if tt.events {
				events = watcher.NewDiffer().Diff(u) // fills the recent events
			}
			v.Draw(u, events)
			lines := v.frame(u, tt.cols, tt.rows)
			got := []byte(strings.Join(lines, "\n") + "\n")
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
			if n := len(u.Synthesis.Findings) - viewFindings; n > 0 && !strings.Contains(string(got), fmt.Sprintf("… and %d more", n)) {
				t.Errorf("no \"… and %d more\" under the top findings:\n%s", n, got)
			}
		})
	}
}

// unreadUpdate is a finished safe run, one of whose two reports could not
// be fully read (SPEC §2.3 "never silently safe").
func unreadUpdate() *watcher.Update {
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	run := &synth.Run{Input: "runs/review", Agents: []synth.Agent{
		{Name: "fd-quality", File: "fd-quality.md", Status: parse.StatusValid, ModTime: base.Add(time.Minute),
			Report: &parse.Report{Status: parse.StatusValid, Findings: []parse.Finding{
				{Severity: parse.P3, ID: "QA-1", Section: "Style", Title: "Error messages use mixed wording", Line: 2}}}},
		{Name: "security-audit", File: "security-audit.md", Status: parse.StatusUnreadable, ModTime: base.Add(2 * time.Minute),
			Report: &parse.Report{Status: parse.StatusUnreadable, DeclaredVerdict: parse.Risky, Diagnostics: []parse.Diagnostic{
				{Level: parse.LevelWarning, Message: "malformed index: prose fallback"},
				{Line: 9, Level: parse.LevelError, Message: "P0 \"CRITICAL\"\x1b[2J here gave no finding"}}}},
	}}
	s := synth.Synthesize(run, synth.Options{})
	return &watcher.Update{Time: base.Add(3 * time.Minute), Started: base, Final: true, Synthesis: s, Agents: map[string]watcher.AgentTimes{
		"fd-quality":     {FirstSeen: base, Done: base.Add(time.Minute)},
		"security-audit": {FirstSeen: base, Done: base.Add(2 * time.Minute)},
	}}
}

// TestLiveViewUnreadable: the live view never shows a plain SAFE for a run
// with a report it could not fully read: the verdict line says so, the
// agent's status is unreadable, and its note gives the reason, with the
// control characters of agent text made harmless.
func TestLiveViewUnreadable(t *testing.T) {
	v := New(io.Discard, Options{Dir: "runs/review"})
	u := unreadUpdate()
	frame := strings.Join(v.frame(u, 120, 30), "\n")
	for _, want := range []string{
		"Verdict: SAFE — 1 report could not be fully read  2/2 completed",
		"security-audit               unreadable",
		`  line 9: P0 "CRITICAL"␛[2J here gave no finding`,
	} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame:\n%s", want, frame)
		}
	}
	if strings.Contains(frame, "\x1b") {
		t.Errorf("an escape sequence of agent text reached the frame:\n%q", frame)
	}
	clean := viewUpdate()
	if frame := strings.Join(v.frame(clean, 100, 30), "\n"); strings.Contains(frame, "could not be fully read") {
		t.Errorf("a run read in full says a report could not be fully read:\n%s", frame)
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
	// Keys holds the terminal in raw mode, where LF alone does not return
	// the cursor: every line break is CR LF.
	if n, crlf := strings.Count(first, "\n"), strings.Count(first, "\r\n"); n == 0 || n != crlf {
		t.Errorf("%d line feeds, %d of them after a carriage return", n, crlf)
	}
	w.Reset()
	v.Draw(u, nil)
	if w.writes != 2 || !strings.HasPrefix(w.String(), csiHome) {
		t.Errorf("second frame: %d writes in all, starts %q", w.writes, w.String()[:min(10, w.Len())])
	}
	w.Reset()
	v.Suspend() // Ctrl-Z: off the alternate screen, the view goes on
	if w.String() != csiAltOff {
		t.Errorf("suspend wrote %q", w.String())
	}
	w.Reset()
	v.Resume()
	if !strings.HasPrefix(w.String(), csiAltOn+csiHome) || !strings.Contains(w.String(), "Verdict") {
		t.Errorf("resume: %q…, want the last frame on the alternate screen", w.String()[:min(20, w.Len())])
	}
	w.Reset()
	v.Close()
	if w.String() != csiAltOff {
		t.Errorf("close wrote %q", w.String())
	}
	w.Reset()
	v.Resume()
	v.Suspend()
	if w.Len() != 0 {
		t.Errorf("a closed view wrote %q", w.String())
	}
	var none *View // Keys without a view
	none.Suspend()
	none.Resume()
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

// TestWidth: fit and cut measure display cells, so CJK and emoji (two
// cells), combining marks (none) and ZWJ sequences (one glyph) never make a
// line longer than asked.
func TestWidth(t *testing.T) {
	for _, tt := range []struct {
		s    string
		w    int
		fit  string
		cuts string
	}{
		{"abc", 5, "abc  ", "abc"},
		{"abcdef", 4, "abc…", "abc…"},
		{"日本語のタイトル", 6, "日本… ", "日本…"},
		{"日本語", 5, "日本…", "日本…"},
		{"日本語", 4, "日… ", "日…"},
		{"🔥 hot path", 6, "🔥 ho…", "🔥 ho…"},
		{"e\u0301te\u0301", 4, "e\u0301te\u0301 ", "e\u0301te\u0301"},
		{"👩‍💻 dev", 7, "👩‍💻 dev ", "👩‍💻 dev"},
		{"x", 0, "", ""},
	} {
		if got := fit(tt.s, tt.w); got != tt.fit || width(got) != tt.w {
			t.Errorf("fit(%q, %d) = %q (%d cells), want %q", tt.s, tt.w, got, width(got), tt.fit)
		}
		if got := cut(tt.s, tt.w); got != tt.cuts || width(got) > tt.w {
			t.Errorf("cut(%q, %d) = %q (%d cells), want %q", tt.s, tt.w, got, width(got), tt.cuts)
		}
	}
}

// wideUpdate is a run whose titles, sections and agent names are CJK and
// emoji, with more findings than the view lists, and a blocking peer
// finding one agent acknowledged and one did not.
func wideUpdate() *watcher.Update {
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	var fs []parse.Finding
	titles := []string{
		"セッショントークンが localStorage に保存されている",
		"🔥 热路径中的锁竞争导致延迟飙升 🔥",
		"데이터베이스 연결 풀이 고갈됨",
		"👩‍💻 개발자 모드가 프로덕션에서 활성화됨",
		"Cache eviction ignores pinned entries",
		"日志中泄露了访问令牌",
		"再試行ポリシーが無制限",
		"🚀 Deploy script skips migrations",
		"Rate limit missing on 登录 endpoint",
		"Emoji in section 🧪 breaks nothing",
		"Ünïcödé çömbïnïng ✓ marks",
		"A twelfth finding",
	}
	for i, title := range titles {
		fs = append(fs, parse.Finding{Severity: parse.Severity(fmt.Sprintf("P%d", i%4)), ID: fmt.Sprintf("W-%03d", i+1),
			Section: "区域 " + fmt.Sprint(i), Title: title, Line: i + 2})
	}
	run := &synth.Run{Input: "runs/レビュー", Agents: []synth.Agent{
		{Name: "fd-安全", File: "fd-安全.md", Status: parse.StatusValid, ModTime: base.Add(time.Minute),
			Report: &parse.Report{Status: parse.StatusValid, Findings: fs[:7]}, Text: []byte("fd-sec said so")},
		{Name: "fd-🧪-tests", File: "fd-🧪-tests.md", Status: parse.StatusValid, ModTime: base.Add(2 * time.Minute),
			Report: &parse.Report{Status: parse.StatusValid, Findings: fs[5:]}, Text: []byte("nothing")},
		{Name: "fd-sec", File: "fd-sec.md", Status: parse.StatusValid, ModTime: base.Add(3 * time.Minute),
			Report: &parse.Report{Status: parse.StatusValid, Findings: fs[:1]}, Text: []byte("nothing")},
	}, Bus: []synth.BusFile{{Name: "peer-findings.jsonl", Entries: []bus.Entry{
		{Severity: bus.Blocking, Agent: "fd-sec", Summary: "トークン漏洩 🔑", Timestamp: "2026-11-20T10:00:20Z", Line: 1, Time: base.Add(20 * time.Second)},
	}}}}
	s := synth.Synthesize(run, synth.Options{Watching: true})
	return &watcher.Update{Time: base.Add(4 * time.Minute), Started: base, Synthesis: s, Agents: map[string]watcher.AgentTimes{}}
}

// TestLiveViewHelp: ? shows the keys in place of the tables, and again
// returns to them; after Close nothing is drawn.
func TestLiveViewHelp(t *testing.T) {
	var w bytes.Buffer
	v := New(&w, Options{Dir: "d"})
	u := viewUpdate()
	v.Draw(u, nil)
	w.Reset()
	v.ToggleHelp()
	if s := w.String(); !strings.Contains(s, "KEYS") || !strings.Contains(s, " q ") || strings.Contains(s, "TOP FINDINGS") {
		t.Errorf("help frame = %q", s)
	}
	w.Reset()
	v.ToggleHelp()
	if s := w.String(); strings.Contains(s, "KEYS") || !strings.Contains(s, "TOP FINDINGS") {
		t.Errorf("frame after help = %q", s)
	}
	v.Close()
	w.Reset()
	v.ToggleHelp()
	v.Draw(u, nil)
	if w.Len() != 0 {
		t.Errorf("drawn after Close: %q", w.String())
	}
}

// TestLiveViewConcurrentKeys: the key reader toggles help while the
// watcher draws; under -race this shows the View's state is guarded.
func TestLiveViewConcurrentKeys(t *testing.T) {
	v := New(io.Discard, Options{Dir: "d"})
	u := viewUpdate()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			v.ToggleHelp()
		}
	}()
	for range 200 {
		v.Draw(u, nil)
	}
	<-done
	v.Close()
}

// TestLiveViewControlsInert: agent text with control characters and a
// right-to-left override (names, titles, bus summaries, a failed agent's
// error) is drawn as visible stand-ins, never raw: the frame's only escape
// sequences are the view's own colours.
func TestLiveViewControlsInert(t *testing.T) {
	dir := t.TempDir()
	testfault.ControlRun(t, dir)
	s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{}, synth.Options{Watching: true})
	if err != nil {
		t.Fatal(err)
	}
	u := &watcher.Update{Time: time.Now(), Started: time.Now(), Synthesis: s}
	v := New(io.Discard, Options{Dir: dir + testfault.ControlText, Size: func() (int, int) { return 200, 60 }})
	v.Draw(u, watcher.NewDiffer().Diff(u))
	got := []byte(strings.Join(v.frame(u, 200, 60), "\n"))
	if bad := testfault.ShowRawControl(got); bad != "" {
		t.Errorf("a raw control character %s in\n%s", bad, got)
	}
	for _, want := range []string{"␛[2J␇⟨U+009B⟩31m⟨U+202E⟩y", "Token x␛[2J"} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("the frame does not show %q:\n%s", want, got)
		}
	}
}
