package synth

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

// TestPrimedBy is the priming rule, case by case: b's report finished at
// t0+1h.
func TestPrimedBy(t *testing.T) {
	at := func(agent string, seq int, d time.Duration) firstMatch {
		ts := t0.Add(d)
		return firstMatch{seq: seq, agent: agent, timed: true, sec: ts.Unix(), nsec: ts.Nanosecond()}
	}
	untimed := func(agent string, seq int) firstMatch { return firstMatch{seq: seq, agent: agent} }
	end := t0.Add(time.Hour)
	for _, c := range []struct {
		name string
		ms   []firstMatch
		want string // agent of the primer, "" for independent
	}{
		{"no entry", nil, ""},
		{"peer posted before b finished", []firstMatch{at("a", 1, 10*time.Minute)}, "a"},
		{"peer posted after b finished", []firstMatch{at("a", 1, 2*time.Hour)}, ""},
		{"peer posted the instant b finished", []firstMatch{at("a", 1, time.Hour)}, ""},
		{"a nanosecond before", []firstMatch{at("a", 1, time.Hour-time.Nanosecond)}, "a"},
		{"b posted first", []firstMatch{at("b", 1, 5*time.Minute), at("a", 2, 10*time.Minute)}, ""},
		{"peer first, then b", []firstMatch{at("a", 1, 10*time.Minute), at("b", 2, 5*time.Minute)}, "a"},
		{"untimed peer entry counts as readable", []firstMatch{untimed("a", 1)}, "a"},
		{"b untimed first", []firstMatch{untimed("b", 1), at("a", 2, time.Minute)}, ""},
		{"late peer, then an earlier one in bus order", []firstMatch{at("a", 1, 2*time.Hour), at("c", 2, 30*time.Minute)}, "c"},
		{"only b", []firstMatch{at("b", 1, time.Minute)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if m := primedBy(c.ms, "b", end.Unix(), end.Nanosecond()); m != nil {
				got = m.agent
			}
			if got != c.want {
				t.Errorf("primed by %q, want %q", got, c.want)
			}
		})
	}
}

// primingRun: fd-c posts a finding first, at 5m (independent); fd-a posts
// it at 10m, finishing at 1h, and fd-b finishes at 30m (both primed by
// fd-c's entry); fd-d finished at 4m, before any entry (independent); fd-e
// only reports a finding nobody posted.
func primingRun() *Run {
	done := func(a Agent, at time.Duration) Agent {
		a.ModTime = t0.Add(at)
		a.Text = []byte("report")
		return a
	}
	title := "Session tokens stored in localStorage"
	return &Run{
		Agents: []Agent{
			done(agentOf("fd-a", parse.StatusValid, fnd(parse.P1, "A-1", "Auth", title, "src/auth.ts:30")), time.Hour),
			done(agentOf("fd-b", parse.StatusValid, fnd(parse.P1, "B-1", "Auth", title)), 30*time.Minute),
			done(agentOf("fd-c", parse.StatusValid, fnd(parse.P1, "C-1", "Auth", title)), time.Hour),
			done(agentOf("fd-d", parse.StatusValid, fnd(parse.P1, "D-1", "Auth", title)), 4*time.Minute),
			done(agentOf("fd-e", parse.StatusValid, fnd(parse.P2, "E-1", "Perf", "Hot loop in refresh")), time.Hour),
		},
		Bus: []BusFile{{Name: "findings.jsonl", Entries: []bus.Entry{
			entry(bus.Notable, "fd-c", title, 5*time.Minute, "src/auth.ts:30"),
			entry(bus.Blocking, "fd-a", title, 10*time.Minute, "src/auth.ts:30"),
		}}},
	}
}

func TestPriming(t *testing.T) {
	s := Synthesize(primingRun(), Options{})
	f := s.Findings[0]
	// fd-a posted too, but after fd-c's entry, which it could have read.
	want := []Priming{{Agent: "fd-a", By: "fd-c", Seq: 1}, {Agent: "fd-b", By: "fd-c", Seq: 1}}
	if f.Convergence != 4 || f.Independent != 2 || !reflect.DeepEqual(f.Primed(), want) {
		t.Errorf("convergence %d, independent %d, primed %+v; want 4, 2, %+v", f.Convergence, f.Independent, f.Primed(), want)
	}
	md := string(RenderMarkdown(s))
	if !strings.Contains(md, "(4/5 agents: fd-a, fd-b, fd-c, fd-d; 2 independent, 2 after fd-c posted)") {
		t.Errorf("summary.md lacks the split:\n%s", md)
	}
	got := map[string]AgentYield{}
	for _, y := range s.Yield {
		got[y.Agent] = y
	}
	if y := got["fd-b"]; y.Reported != 1 || y.Primed != 1 || y.Independent != 0 || y.Unique != 0 {
		t.Errorf("fd-b yield %+v", y)
	}
	if y := got["fd-c"]; y.Reported != 1 || y.Independent != 1 {
		t.Errorf("fd-c yield %+v", y)
	}
	if y := got["fd-e"]; y.Reported != 1 || y.Unique != 1 {
		t.Errorf("fd-e yield %+v", y)
	}
}

// TestPrimingLiveRebase: an agent that completes after the bus was read
// makes the Live merge again and rebase its timeline; the priming must be
// what Synthesize finds, including a second agent's first entry of a match
// key that another agent posted first.
func TestPrimingLiveRebase(t *testing.T) {
	run := primingRun()
	run.Bus[0].Entries = append(run.Bus[0].Entries, entry(bus.Notable, "fd-b", "Session tokens stored in localStorage", 20*time.Minute, "src/auth.ts:30"))
	l := NewLive(Options{})
	partial := *run
	partial.Agents = run.Agents[:1]
	l.Update(&partial)
	l.Update(run)
	want := must(RenderJSON(Synthesize(run, Options{})))
	got := must(RenderJSON(l.Synthesis()))
	if string(got) != string(want) {
		t.Errorf("live after rebase differs from Synthesize:\n%s\nwant\n%s", got, want)
	}
}

// TestProvenance: a report's own word first, then its bus records; what
// nobody declares stays unknown (null).
func TestProvenance(t *testing.T) {
	run := primingRun()
	run.Agents[0].Report.Provenance = parse.Provenance{Model: "opus", Commit: "abc123"}
	e := entry(bus.Notable, "fd-a", "Something else", 11*time.Minute)
	e.Model, e.RunID = "haiku", "r-9"
	run.Bus[0].Entries = append(run.Bus[0].Entries, e)
	e = entry(bus.Notable, "fd-b", "Something else again", 12*time.Minute)
	e.Model = "sonnet"
	run.Bus[0].Entries = append(run.Bus[0].Entries, e)
	s := Synthesize(run, Options{})
	str := func(p *string) string {
		if p == nil {
			return "unknown"
		}
		return *p
	}
	got := map[string]string{}
	for _, p := range s.Findings[0].Provenance() {
		got[p.Agent] = str(p.Model) + " " + str(p.Commit) + " " + str(p.RunID) + " " + str(p.PromptHash)
	}
	want := map[string]string{
		"fd-a": "opus abc123 r-9 unknown",
		"fd-b": "sonnet unknown unknown unknown",
		"fd-c": "unknown unknown unknown unknown",
		"fd-d": "unknown unknown unknown unknown",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("provenance %v, want %v", got, want)
	}
	if a := s.Agents[0]; a.Name != "fd-a" || str(a.Provenance.Model) != "opus" {
		t.Errorf("agent %s provenance model %s", a.Name, str(a.Provenance.Model))
	}
}
