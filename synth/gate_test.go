package synth

import (
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// TestGateJudge: every gate that is set trips on an unreadable agent unless
// it allows them; no gate never trips; the other rules hold beside it.
func TestGateJudge(t *testing.T) {
	unread := unreadableRun()
	clean := Synthesize(&Run{Agents: []Agent{agentOf("fd-valid", parse.StatusValid, fnd(parse.P2, "V-1", "S", "Retry"))}}, Options{})
	risky := Synthesize(&Run{Agents: []Agent{agentOf("fd-valid", parse.StatusValid, fnd(parse.P0, "V-1", "S", "Hole")),
		unreadableAgent("audit")}}, Options{})
	empty := Synthesize(&Run{}, Options{})
	// One new P1 (since an empty baseline) beside the unreadable agent.
	withNew := Synthesize(&Run{Agents: []Agent{agentOf("fd-valid", parse.StatusValid, fnd(parse.P1, "V-1", "S", "Race")),
		unreadableAgent("audit")}}, Options{Baseline: &Baseline{Path: "old.json"}})

	for _, tt := range []struct {
		name       string
		gate       Gate
		s          *Synthesis
		tripped    bool
		unreadable []string
		reasons    []string
	}{
		{"no gate, unreadable", Gate{}, unread, false, nil, nil},
		{"no gate, error verdict", Gate{}, empty, false, nil, nil},
		{"no gate, allow", Gate{AllowUnreadable: true}, unread, false, nil, nil},
		{"needs-changes, unreadable", Gate{FailOn: parse.NeedsChanges}, unread, true, []string{"audit"},
			[]string{"1 report could not be fully read"}},
		{"risky, unreadable", Gate{FailOn: parse.Risky}, unread, true, []string{"audit"}, []string{"1 report could not be fully read"}},
		{"needs-changes, allowed", Gate{FailOn: parse.NeedsChanges, AllowUnreadable: true}, unread, false, nil, nil},
		{"min-independent, unreadable", Gate{FailOn: parse.Risky, MinIndependent: 2}, unread, true, []string{"audit"},
			[]string{"1 report could not be fully read"}},
		{"fail-on-new only, unreadable", Gate{FailOnNew: parse.P0}, withNew, true, []string{"audit"},
			[]string{"1 report could not be fully read"}},
		{"fail-on-new, new and unreadable", Gate{FailOnNew: parse.P1}, withNew, true, []string{"audit"},
			[]string{"1 new finding", "1 report could not be fully read"}},
		{"fail-on-new, new, allowed", Gate{FailOnNew: parse.P1, AllowUnreadable: true}, withNew, true, nil,
			[]string{"1 new finding"}},
		{"risky verdict, allowed", Gate{FailOn: parse.Risky, AllowUnreadable: true}, risky, true, nil, []string{"verdict risky"}},
		{"risky verdict and unreadable", Gate{FailOn: parse.NeedsChanges}, risky, true, []string{"audit"},
			[]string{"verdict risky", "1 report could not be fully read"}},
		{"clean run passes", Gate{FailOn: parse.NeedsChanges}, clean, false, nil, nil},
		{"error verdict trips fail-on", Gate{FailOn: parse.Risky}, empty, true, nil, []string{"verdict error"}},
		{"error verdict trips fail-on-new", Gate{FailOnNew: parse.P0}, empty, true, nil, []string{"verdict error"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.gate.Judge(tt.s)
			if d.Tripped != tt.tripped {
				t.Errorf("tripped = %v, want %v", d.Tripped, tt.tripped)
			}
			if !slices.Equal(d.Unreadable, tt.unreadable) {
				t.Errorf("unreadable = %v, want %v", d.Unreadable, tt.unreadable)
			}
			if got := d.Reasons(); !slices.Equal(got, tt.reasons) {
				t.Errorf("reasons = %q, want %q", got, tt.reasons)
			}
		})
	}
}

// TestGateMinIndependentSkipsSuppressed: the verdict --min-independent
// applies leaves a suppressed finding out, as the verdict itself does.
func TestGateMinIndependentSkipsSuppressed(t *testing.T) {
	run := &Run{Agents: []Agent{
		agentOf("fd-a", parse.StatusValid, fnd(parse.P0, "A-1", "S", "Token leak")),
		agentOf("fd-b", parse.StatusValid, fnd(parse.P0, "B-1", "S", "Token leak")),
	}}
	s := Synthesize(run, Options{Suppressions: []Suppression{{Match: SuppressionMatch{Title: "token leak"}, Reason: "accepted", File: "cfg", Line: 1}}})
	if s.Verdict != parse.Safe {
		t.Fatalf("verdict %s, want safe (the only finding is suppressed)", s.Verdict)
	}
	g := Gate{FailOn: parse.NeedsChanges, MinIndependent: 2}
	if d := g.Judge(s); d.Tripped || d.Verdict != parse.Safe {
		t.Errorf("--min-independent 2: tripped %v on verdict %s; want safe, passing", d.Tripped, d.Verdict)
	}
}

func TestGateString(t *testing.T) {
	for _, tt := range []struct {
		g    Gate
		want string
	}{
		{Gate{}, "--fail-on none"},
		{Gate{AllowUnreadable: true, MinIndependent: 2}, "--fail-on none"},
		{Gate{FailOn: parse.NeedsChanges}, "--fail-on needs-changes"},
		{Gate{FailOn: parse.Risky, MinIndependent: 2, FailOnNew: parse.P1, AllowUnreadable: true},
			"--fail-on risky --min-independent 2 --fail-on-new P1 --allow-unreadable"},
	} {
		if got := tt.g.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.g, got, tt.want)
		}
	}
}
