package synth

import (
	"bytes"
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// unreadableAgent is an agent whose report could not be fully read: it
// declared risky and gave one P3, with two reasons (error diagnostics) and
// a warning that is not one.
func unreadableAgent(name string) Agent {
	a := agentOf(name, parse.StatusUnreadable, fnd(parse.P3, "", "", "Log lines are long"))
	a.Report.Findings[0].Confidence = parse.ConfidenceLow
	a.Report.DeclaredVerdict = parse.Risky
	a.Report.Diagnostics = []parse.Diagnostic{
		{Line: 0, Level: parse.LevelWarning, Message: "malformed index: prose fallback"},
		{Line: 7, Level: parse.LevelError, Message: `P0 "CRITICAL" here gave no finding`},
		{Line: 12, Level: parse.LevelError, Message: "declared verdict risky is worse than the safe computed from what was read"},
	}
	return a
}

// unreadableRun is a safe run (a P2 and a P3) of a valid agent and an
// unreadable one.
func unreadableRun() *Synthesis {
	valid := agentOf("fd-valid", parse.StatusValid, fnd(parse.P2, "V-1", "S", "Retry without backoff", "src/a.go:3"))
	return Synthesize(&Run{Input: "run", Agents: []Agent{valid, unreadableAgent("audit")}},
		Options{Generator: Generator{Name: "fluxwatch", Version: "test"}})
}

func TestAgentsUnreadable(t *testing.T) {
	s := unreadableRun()
	if s.Verdict != parse.Safe {
		t.Errorf("verdict %s, want safe: the verdict is computed from what was read", s.Verdict)
	}
	if !slices.Equal(s.AgentsUnreadable, []string{"audit"}) || !slices.Contains(s.AgentsCompleted, "audit") {
		t.Errorf("unreadable %v, completed %v: want audit in both", s.AgentsUnreadable, s.AgentsCompleted)
	}
	if got := len(s.Findings); got != 2 {
		t.Errorf("%d findings, want 2: what was read of an unreadable report counts", got)
	}
	var audit AgentResult
	for _, a := range s.Agents {
		if a.Name == "audit" {
			audit = a
		}
	}
	reasons := audit.UnreadReasons()
	if len(reasons) != 2 || reasons[0].Line != 7 || reasons[1].Line != 12 {
		t.Errorf("reasons %v, want the two error diagnostics, lines 7 and 12", reasons)
	}
	for _, a := range s.Agents {
		if a.Name != "audit" && a.UnreadReasons() != nil {
			t.Errorf("%s (%s) has unread reasons", a.Name, a.Status)
		}
	}
	clean := Synthesize(&Run{Agents: []Agent{agentOf("fd-valid", parse.StatusValid)}}, Options{})
	if clean.AgentsUnreadable == nil || len(clean.AgentsUnreadable) != 0 {
		t.Errorf("agents_unreadable of a fully read run: %#v, want []", clean.AgentsUnreadable)
	}
	if !bytes.Contains(RenderJSON(clean), []byte(`"agents_unreadable": []`)) {
		t.Error(`findings.json of a fully read run has no "agents_unreadable": []`)
	}
}
