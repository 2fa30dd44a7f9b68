package termview

import (
	"bytes"
	"fmt"
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

// TestLiveViewWide: a frame of CJK and emoji text keeps every line within
// the terminal's columns, lists "… and N more" for the findings it leaves
// out, and shows each agent's acknowledgements.
func TestLiveViewWide(t *testing.T) {
	local := time.Local
	time.Local = time.UTC
	defer func() { time.Local = local }()
	for _, cols := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(cols), func(t *testing.T) {
			u := wideUpdate()
			v := New(io.Discard, Options{Dir: "runs/レビュー"})
			v.Draw(u, nil)
			lines := v.frame(u, cols, 40)
			got := []byte(strings.Join(lines, "\n") + "\n")
			path := filepath.Join("testdata", "view", fmt.Sprintf("wide-%d.golden", cols))
			if *updateView {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(path); err != nil {
				t.Fatalf("%v (run with -update-view to write it)", err)
			} else if !bytes.Equal(got, want) {
				t.Errorf("frame differs from %s:\n%s", path, got)
			}
			for _, l := range lines {
				if n := width(l); n > cols {
					t.Errorf("line of %d cells for %d columns: %q", n, cols, l)
				}
			}
			frame := string(got)
			if n := len(u.Synthesis.Findings) - viewFindings; !strings.Contains(frame, fmt.Sprintf("… and %d more", n)) {
				t.Errorf("no \"… and %d more\" under the top findings:\n%s", n, frame)
			}
		})
	}
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
