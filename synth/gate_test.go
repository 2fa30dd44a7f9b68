package synth

import (
	"slices"
	"strings"
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

// TestGateExplain: a tripped gate says why, one line per reason: the
// verdict with its top findings (most severe first, with agents and
// file:line, then how many more), the new findings since the baseline, the
// unreadable reports; an error verdict warns without a gate and trips one.
func TestGateExplain(t *testing.T) {
	risky := Synthesize(&Run{Agents: []Agent{
		agentOf("fd-a", parse.StatusValid, fnd(parse.P0, "SEC-001", "Auth", "Token in localStorage", "web/auth.ts:12"),
			fnd(parse.P1, "SEC-002", "Auth", "No rate limit"), fnd(parse.P2, "SEC-003", "Style", "Long lines")),
		agentOf("fd-b", parse.StatusValid, fnd(parse.P0, "B-1", "Auth", "Token in localStorage", "web/auth.ts:12"),
			fnd(parse.P1, "B-2", "Data", "Lost update on save", "db/save.go:40"),
			fnd(parse.P1, "B-3", "Data", "Missing index on orders", "db/schema.sql:7"),
			fnd(parse.P1, "B-4", "Data", "Unbounded retry loop", "db/retry.go:3")),
	}}, Options{})
	withNew := Synthesize(&Run{Agents: []Agent{agentOf("fd-a", parse.StatusValid, fnd(parse.P1, "A-1", "S", "Race on cache", "c.go:9"))}},
		Options{Baseline: &Baseline{Path: "base/findings.json"}})
	failed := Synthesize(&Run{Agents: []Agent{{Name: "fd-x", File: "fd-x.abort", Status: parse.StatusError}}}, Options{})
	for _, tt := range []struct {
		name string
		gate Gate
		s    *Synthesis
		want []string
	}{
		{"no gate, risky", Gate{}, risky, nil},
		{"risky trips needs-changes", Gate{FailOn: parse.NeedsChanges}, risky, []string{
			"gate --fail-on needs-changes tripped: verdict risky from 5 findings at P1 or above: " +
				"P0 SEC-001 Token in localStorage (fd-a, fd-b; web/auth.ts:12); P1 SEC-002 No rate limit (fd-a; fd-a.md:3); " +
				"P1 B-2 Lost update on save (fd-b; db/save.go:40); and 2 more (see summary.md)"}},
		{"risky trips risky", Gate{FailOn: parse.Risky}, risky, []string{
			"gate --fail-on risky tripped: verdict risky from 1 finding at P0 or above: P0 SEC-001 Token in localStorage (fd-a, fd-b; web/auth.ts:12)"}},
		{"new since the baseline", Gate{FailOnNew: parse.P1}, withNew, []string{
			"gate --fail-on-new P1 tripped: 1 new finding since the baseline base/findings.json: P1 A-1 Race on cache (fd-a; c.go:9)"}},
		{"error verdict, no gate", Gate{}, failed, []string{
			"warning: verdict error: none of 1 agent completed, so nothing was reviewed (1 failed: fd-x); no gate is set (--fail-on none), so nothing trips on it"}},
		{"error verdict, gate", Gate{FailOn: parse.Risky}, failed, []string{
			"gate --fail-on risky tripped: verdict error: none of 1 agent completed, so nothing was reviewed (1 failed: fd-x)"}},
		{"empty run, gate", Gate{FailOn: parse.Risky}, Synthesize(&Run{}, Options{}), []string{
			"gate --fail-on risky tripped: verdict error: no agent report was found, so nothing was reviewed"}},
		{"unreadable, no gate", Gate{}, unreadableRun(), []string{
			"warning: 1 report could not be fully read (audit.md): the verdict counts what was read and may be too low; no gate is set (--fail-on none), so nothing trips on it"}},
		{"unreadable, gate", Gate{FailOn: parse.Risky}, unreadableRun(), []string{
			"gate --fail-on risky tripped: 1 report could not be fully read (audit.md); --allow-unreadable lets the gate pass it"}},
		{"unreadable, allowed", Gate{FailOn: parse.Risky, AllowUnreadable: true}, unreadableRun(), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.gate.Judge(tt.s)
			got := d.Explain()
			if !slices.Equal(got, tt.want) {
				t.Errorf("Explain:\n%q\nwant\n%q", got, tt.want)
			}
			if d.Tripped != (len(tt.want) > 0 && strings.HasPrefix(tt.want[0], "gate ")) {
				t.Errorf("tripped %v, but Explain says %q", d.Tripped, got)
			}
		})
	}
}
