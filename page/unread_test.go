package page_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// unreadRun is a safe run of two completed agents, one of whose reports
// could not be fully read (SPEC §2.3 "never silently safe").
func unreadRun() *synth.Synthesis {
	return synth.Synthesize(&synth.Run{Input: "run", Agents: unreadRunAgents()},
		synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "test"}})
}

// unreadRunAgents are the agents of unreadRun: the valid one first.
func unreadRunAgents() []synth.Agent {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	return []synth.Agent{
		{Name: "fd-quality", File: "fd-quality.md", Status: parse.StatusValid, ModTime: at,
			Report: &parse.Report{Status: parse.StatusValid, Findings: []parse.Finding{
				{Severity: parse.P3, ID: "QA-1", Section: "Style", Title: "Long lines", Line: 2, Confidence: parse.ConfidenceHigh}}}},
		{Name: "security-audit", File: "security-audit.md", Status: parse.StatusUnreadable, ModTime: at,
			Report: &parse.Report{Status: parse.StatusUnreadable, DeclaredVerdict: parse.Risky, Diagnostics: []parse.Diagnostic{
				{Line: 9, Level: parse.LevelError, Message: `P0 "CRITICAL" here gave no finding`}}}},
	}
}

// TestGateBannerUnreadable: the banner shows the gate as synth.Gate decides
// it: an unreadable report trips a gate that is set, unless it is allowed.
func TestGateBannerUnreadable(t *testing.T) {
	s := unreadRun()
	for _, tt := range []struct {
		gate synth.Gate
		want string
	}{
		{synth.Gate{FailOn: parse.NeedsChanges}, `<p class="gate tripped" id="gate">gate --fail-on needs-changes: tripped (1 report could not be fully read)</p>`},
		{synth.Gate{FailOn: parse.NeedsChanges, AllowUnreadable: true}, `<p class="gate ok" id="gate">gate --fail-on needs-changes --allow-unreadable: passes</p>`},
		{synth.Gate{FailOnNew: parse.P1}, `<p class="gate tripped" id="gate">gate --fail-on-new P1: tripped (1 report could not be fully read)</p>`},
		{synth.Gate{}, `<p class="gate ok" id="gate">no gate (--fail-on none)</p>`},
	} {
		if got := string(render(t, s, page.Options{Gate: tt.gate})); !strings.Contains(got, tt.want) {
			t.Errorf("%s: no %s in the page", tt.gate, tt.want)
		}
	}
}

// TestPageSaysUnreadable: a safe run with an unreadable report is never a
// plain "safe" page: the title and the banner say a report could not be
// fully read, the banner is not the safe one, and the agent's reasons show
// unfolded, first.
func TestPageSaysUnreadable(t *testing.T) {
	got := string(render(t, unreadRun(), page.Options{}))
	for _, want := range []string{
		"<title>fluxwatch · safe — 1 report could not be fully read · run</title>",
		`<header class="banner v-safe v-unread">`,
		`<p class="unread" id="unread" role="alert">1 report could not be fully read: security-audit — the verdict counts what was read and may be too low</p>`,
		`<span class="status st-unreadable">unreadable</span>`,
		`<details class="diag" open><summary>1</summary><ul class="diags"><li class="lvl-error">line 9: error: P0 &#34;CRITICAL&#34; here gave no finding</li>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	clean := synth.Synthesize(&synth.Run{Input: "run", Agents: unreadRunAgents()[:1]}, synth.Options{})
	if got := string(render(t, clean, page.Options{})); strings.Contains(got, "could not be fully read") || strings.Contains(got, `v-unread">`) {
		t.Error("a run read in full says a report could not be fully read")
	}
}

// TestPageUnreadReasonsFirst: the first diagnostics shown of an unreadable
// agent are its reasons, whatever warnings come before them by line.
func TestPageUnreadReasonsFirst(t *testing.T) {
	agents := unreadRunAgents()
	var diags []parse.Diagnostic
	for i := range 8 {
		diags = append(diags, parse.Diagnostic{Line: 1 + i, Level: parse.LevelWarning, Message: "a warning"})
	}
	diags = append(diags, parse.Diagnostic{Line: 40, Level: parse.LevelError, Message: "P1 here gave no finding"})
	agents[1].Report.Diagnostics = diags
	got := string(render(t, synth.Synthesize(&synth.Run{Agents: agents}, synth.Options{}), page.Options{}))
	if !strings.Contains(got, `<ul class="diags"><li class="lvl-error">line 40: error: P1 here gave no finding</li>`) {
		t.Errorf("the reason is not the first diagnostic shown:\n%s", got)
	}
}
