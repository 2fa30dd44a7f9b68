package watcher

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

func agentWith(name string, status parse.Status, findings ...parse.Finding) synth.Agent {
	file := name + ".md"
	if status == parse.StatusPartial {
		file += ".partial"
	}
	return synth.Agent{Name: name, File: file, Status: status, Report: &parse.Report{Status: status, Findings: findings}}
}

func finding(sev parse.Severity, title string) parse.Finding {
	return parse.Finding{Severity: sev, ID: "AR-001", Section: "Auth", Title: title, Line: 2}
}

func TestDiffer(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	tokens := finding(parse.P1, "Tokens in localStorage")
	steps := []struct {
		name     string
		agents   []synth.Agent
		expect   []string
		final    bool
		appended []BusEntry
		stalled  []Stall
		diags    []parse.Diagnostic
		want     []string
	}{
		{name: "empty", want: nil},
		{name: "a starts", agents: []synth.Agent{agentWith("fd-a", parse.StatusPartial)},
			want: []string{"agent_started fd-a"}},
		{name: "a completes", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens)},
			want: []string{"agent_completed fd-a", "finding_added Tokens in localStorage", "verdict_changed needs-changes", "converged needs-changes"}},
		{name: "b starts", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens), agentWith("fd-b", parse.StatusPartial)},
			want: []string{"agent_started fd-b"}},
		{name: "b completes with the same finding", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens), agentWith("fd-b", parse.StatusValid, tokens)},
			want: []string{"agent_completed fd-b", "convergence_changed Tokens in localStorage 1→2", "converged needs-changes"}},
		{name: "bus", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens), agentWith("fd-b", parse.StatusValid, tokens)},
			appended: []BusEntry{
				{File: "findings.jsonl", Seq: 1, Entry: bus.Entry{Agent: "fd-a", Severity: bus.Blocking, Summary: "Tokens", Line: 1}},
				{File: "findings.jsonl", Seq: 2, Entry: bus.Entry{Agent: "fd-c", Kind: bus.EntryStall, Severity: "warn", Summary: "no output", Line: 2}},
			},
			stalled: []Stall{{Agent: "fd-d", File: "fd-d.md.partial", Idle: time.Minute}},
			diags:   []parse.Diagnostic{{Path: "findings.jsonl", Level: parse.LevelWarning, Message: "bus shrank"}},
			want:    []string{"diagnostic bus shrank", "peer_finding fd-a", "stalled fd-c bus", "stalled fd-d timeout"}},
		{name: "a new P0", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens, finding(parse.P0, "Signing key committed")), agentWith("fd-b", parse.StatusValid, tokens)},
			want: []string{"finding_added Signing key committed", "verdict_changed risky"}},
		{name: "c completes with another finding: M changes, N does not", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens, finding(parse.P0, "Signing key committed")), agentWith("fd-b", parse.StatusValid, tokens), agentWith("fd-c", parse.StatusValid, finding(parse.P2, "Slow query in reports"))},
			want: []string{"agent_started fd-c", "agent_completed fd-c", "finding_added Slow query in reports"}},
		{name: "b drops the finding", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens, finding(parse.P0, "Signing key committed")), agentWith("fd-b", parse.StatusValid), agentWith("fd-c", parse.StatusValid, finding(parse.P2, "Slow query in reports"))},
			want: []string{"convergence_changed Tokens in localStorage 2→1"}},
		{name: "final: an expected agent never came", agents: []synth.Agent{agentWith("fd-a", parse.StatusValid, tokens), agentWith("fd-b", parse.StatusValid, tokens)},
			expect: []string{"fd-e"}, final: true,
			want: []string{"agent_failed fd-e", "convergence_changed Tokens in localStorage 1→2", "verdict_changed needs-changes"}},
	}
	d := NewDiffer()
	for i, st := range steps {
		s := synth.Synthesize(&synth.Run{Agents: st.agents}, synth.Options{Watching: !st.final, Expect: st.expect})
		u := &Update{Time: at.Add(time.Duration(i) * time.Second), Synthesis: s, Appended: st.appended, Stalled: st.stalled,
			Diagnostics: st.diags, Final: st.final}
		var got []string
		for _, e := range d.Diff(u) {
			if e.Time != stamp(u.Time) {
				t.Errorf("%s: event time %q", st.name, e.Time)
			}
			got = append(got, strings.TrimSpace(e.Type+" "+pick(e)))
		}
		if !slices.Equal(got, st.want) {
			t.Errorf("%s: events\n%q\nwant\n%q", st.name, got, st.want)
		}
	}
}

// TestDifferUnreadable: an agent whose report could not be fully read
// completes with that status and its first reason; a report rewritten so
// that it reads in full, or no longer does, completes again; converged
// counts the unreadable agents.
func TestDifferUnreadable(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	unread := agentWith("audit", parse.StatusUnreadable)
	unread.Report.Diagnostics = []parse.Diagnostic{
		{Level: parse.LevelWarning, Message: "prose fallback"},
		{Line: 7, Level: parse.LevelError, Message: "declared verdict risky is worse than what was read"},
		{Line: 9, Level: parse.LevelError, Message: "P0 here gave no finding"},
	}
	d := NewDiffer()
	var events []Event
	for i, agents := range [][]synth.Agent{
		{agentWith("audit", parse.StatusPartial)},
		{unread},
		{unread}, // nothing new
		{agentWith("audit", parse.StatusMalformed)},
		{unread},
	} {
		s := synth.Synthesize(&synth.Run{Agents: agents}, synth.Options{Watching: true})
		events = append(events, d.Diff(&Update{Time: at.Add(time.Duration(i) * time.Second), Synthesis: s})...)
	}
	var completed, converged []Event
	for _, e := range events {
		switch e.Type {
		case EventAgentCompleted:
			completed = append(completed, e)
		case EventConverged:
			converged = append(converged, e)
		}
	}
	if len(completed) != 3 {
		t.Fatalf("%d agent_completed events, want 3 (unreadable, malformed, unreadable again): %+v", len(completed), completed)
	}
	for i, want := range []parse.Status{parse.StatusUnreadable, parse.StatusMalformed, parse.StatusUnreadable} {
		if completed[i].Status != want {
			t.Errorf("agent_completed %d: status %s, want %s", i, completed[i].Status, want)
		}
	}
	if e := completed[0]; e.Line != 7 || e.Reason != "declared verdict risky is worse than what was read" || e.File != "audit.md" {
		t.Errorf("agent_completed of an unreadable report: line %d, reason %q, file %q", e.Line, e.Reason, e.File)
	}
	if e := completed[1]; e.Reason != "" || e.Line != 0 {
		t.Errorf("agent_completed of a malformed report carries a reason: %+v", e)
	}
	b, err := json.Marshal(completed[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"file":"audit.md","line":7,"status":"unreadable","verdict":"safe"`) ||
		!strings.Contains(string(b), `"reason":"declared verdict risky is worse than what was read"`) {
		t.Errorf("agent_completed = %s", b)
	}
	if len(converged) != 1 || converged[0].Unreadable == nil || *converged[0].Unreadable != 1 {
		t.Errorf("converged events %+v, want one with agents_unreadable 1", converged)
	}
}

// pick is the field of an event that names what it is about.
func pick(e Event) string {
	switch e.Type {
	case EventFindingAdded:
		return e.Title
	case EventConvergenceChanged:
		return fmt.Sprintf("%s %d→%d", e.Title, e.FromConvergence, e.Convergence)
	case EventVerdictChanged, EventConverged:
		return string(e.Verdict)
	case EventDiagnostic:
		return e.Message
	case EventStalled:
		return e.Agent + " " + e.Source
	}
	return e.Agent
}

func TestEventText(t *testing.T) {
	three, one := 3, 1
	counts := &synth.Counts{P0: 1, P1: 2}
	for _, tt := range []struct {
		e    Event
		want string
	}{
		{Event{Type: EventAgentCompleted, Agent: "fd-a", Status: parse.StatusVariant, Verdict: parse.Risky, Counts: counts},
			"completed fd-a: variant, risky (P0 1, P1 2, P2 0, P3 0)"},
		{Event{Type: EventPeerFinding, Seq: 4, Agent: "fd-a", Severity: "blocking", Category: "auth", Summary: "Tokens\nleak\x1b[2J", FileRefs: []string{"a.go:1"}},
			"peer      #4 fd-a blocking [auth] Tokens leak␛[2J (a.go:1)"},
		{Event{Type: EventFindingAdded, Severity: "P1", ConvergenceDisplay: "1/2", Title: "bell\a \u009b31m", Section: "rlo\u202e", Agents: []string{"fd-a"}},
			"finding   P1 1/2 \"bell␇ ⟨U+009B⟩31m\" in rlo⟨U+202E⟩ (fd-a)"},
		{Event{Type: EventDiagnostic, File: "fd-\u202e.md", Line: 2, Level: parse.LevelWarning, Message: "severity \"\x1b[2J\" here"},
			"fd-⟨U+202E⟩.md:2: warning: severity \"␛[2J\" here"},
		{Event{Type: EventConvergenceChanged, Severity: "P1", Title: "Tokens", Agents: []string{"fd-a", "fd-b"}, FromConvergence: 1, Convergence: 2, ConvergenceDisplay: "2/3"},
			"converge  P1 \"Tokens\": 1 → 2/3 agents (fd-a, fd-b)"},
		{Event{Type: EventConverged, Verdict: parse.Safe, Launched: &three, Completed: &three, Failed: &one, Findings: &one},
			"converged safe: 3/3 agents completed, 1 failed, 1 finding"},
		{Event{Type: EventAgentCompleted, Agent: "audit", Status: parse.StatusUnreadable, Verdict: parse.Safe, Counts: &synth.Counts{},
			Line: 7, Reason: "declared verdict risky is worse than what was read"},
			"completed audit: unreadable, safe (P0 0, P1 0, P2 0, P3 0) — could not be fully read: line 7: declared verdict risky is worse than what was read"},
		{Event{Type: EventConverged, Verdict: parse.Safe, Launched: &three, Completed: &three, Failed: &one, Unreadable: &one, Findings: &one},
			"converged safe — 1 report could not be fully read: 3/3 agents completed, 1 failed, 1 finding"},
		{Event{Type: EventStalled, Agent: "fd-s", File: "fd-s.md.partial", Source: "timeout", IdleSeconds: 300},
			"stalled   fd-s: fd-s.md.partial unchanged for 5m0s"},
		{Event{Type: EventDiagnostic, File: "findings.jsonl", Line: 3, Level: parse.LevelError, Message: "invalid JSON"},
			"findings.jsonl:3: error: invalid JSON"},
	} {
		tt.e.Time = "2026-11-20T10:00:00.000Z"
		got := tt.e.Text()
		if _, rest, _ := strings.Cut(got, " "); rest != tt.want {
			t.Errorf("Text() = %q, want %q after the clock", got, tt.want)
		}
	}
}

func TestHello(t *testing.T) {
	b, err := json.Marshal(Hello(time.Date(2026, 11, 20, 10, 0, 0, 5e6, time.UTC), "v1.2.3", "runs/x", 0))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"hello","time":"2026-11-20T10:00:00.005Z","version":1,"tool":"fluxwatch","tool_version":"v1.2.3","dir":"runs/x","bus_entries":0}`
	if string(b) != want {
		t.Errorf("hello = %s\nwant    %s", b, want)
	}
}

func TestTopFindings(t *testing.T) {
	s := &synth.Synthesis{Findings: []synth.Finding{
		{Key: "a", Severity: parse.P0, Convergence: 1},
		{Key: "b", Severity: parse.P2, Convergence: 3},
		{Key: "c", Severity: parse.P1, Convergence: 3},
	}}
	var keys []string
	for _, f := range TopFindings(s, 2) {
		keys = append(keys, f.Key)
	}
	if !slices.Equal(keys, []string{"c", "b"}) {
		t.Errorf("top findings %v, want [c b]", keys)
	}
}

// TestDifferSameFindings: a Differ that skips the findings of an update
// whose findings are those of the one before (sameFindings) gives the
// events of one that looks at them every time, over a run that grows by
// bus appends and by agents completing.
func TestDifferSameFindings(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Generate(dir, demo.Config{Agents: 10, Findings: 6, BusLines: 200, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	full, err := Scan(context.Background(), dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	live := synth.NewLive(synth.Options{Watching: true})
	fast, slow := NewDiffer(), NewDiffer()
	r := rand.New(rand.NewPCG(29, 3))
	agents, entries := 1, 0
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	skipped := 0
	for step := range 80 {
		if r.IntN(4) == 0 && agents < len(full.Agents) {
			agents++
		} else {
			entries = min(len(full.Bus[0].Entries), entries+1+r.IntN(5))
		}
		run := *full
		run.Agents = full.Agents[:agents]
		run.Bus = []synth.BusFile{{Name: full.Bus[0].Name, Entries: full.Bus[0].Entries[:entries]}}
		live.Update(&run)
		s := live.Synthesis()
		if fast.sameFindings(s.Findings) {
			skipped++
		}
		slow.seen = nil // never the same: every finding looked at
		u := &Update{Time: at.Add(time.Duration(step) * time.Second), Synthesis: s}
		got, want := fast.Diff(u), slow.Diff(u)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: events\n%+v\nwant\n%+v", step, got, want)
		}
	}
	if skipped == 0 {
		t.Fatal("no update had the findings of the one before: the test tests nothing")
	}
}
