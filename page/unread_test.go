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
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	return synth.Synthesize(&synth.Run{Input: "run", Agents: []synth.Agent{
		{Name: "fd-quality", File: "fd-quality.md", Status: parse.StatusValid, ModTime: at,
			Report: &parse.Report{Status: parse.StatusValid, Findings: []parse.Finding{
				{Severity: parse.P3, ID: "QA-1", Section: "Style", Title: "Long lines", Line: 2, Confidence: parse.ConfidenceHigh}}}},
		{Name: "security-audit", File: "security-audit.md", Status: parse.StatusUnreadable, ModTime: at,
			Report: &parse.Report{Status: parse.StatusUnreadable, DeclaredVerdict: parse.Risky, Diagnostics: []parse.Diagnostic{
				{Line: 9, Level: parse.LevelError, Message: `P0 "CRITICAL" here gave no finding`}}}},
	}}, synth.Options{Generator: synth.Generator{Name: "fluxwatch", Version: "test"}})
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
