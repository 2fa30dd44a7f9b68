package synth

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/parse"
)

// codeClimateIssue is one issue of a Code Climate report, the subset that
// GitLab's Code Quality widget reads.
type codeClimateIssue struct {
	Type        string              `json:"type"`
	CheckName   string              `json:"check_name"`
	Description string              `json:"description"`
	Severity    string              `json:"severity"`
	Fingerprint string              `json:"fingerprint"`
	Location    codeClimateLocation `json:"location"`
}

type codeClimateLocation struct {
	Path  string           `json:"path"`
	Lines codeClimateLines `json:"lines"`
}

type codeClimateLines struct {
	Begin int `json:"begin"`
	End   int `json:"end,omitempty"`
}

// codeClimateSeverity maps a severity to a Code Climate severity: P0
// blocker, P1 critical, P2 major, P3 minor (GitLab orders its widget by
// them; info is left for nothing).
func codeClimateSeverity(s parse.Severity) string {
	switch s {
	case parse.P0:
		return "blocker"
	case parse.P1:
		return "critical"
	case parse.P2:
		return "major"
	}
	return "minor"
}

// RenderCodeClimate returns the findings as a Code Climate report, the JSON
// array of issues that GitLab's merge-request widget reads as a Code
// Quality report: each finding not suppressed is one issue at its first
// file ref (or its line in the agent's report under dir; line 1 for a file
// named without a line), its check the severity (as SARIF's rules), its
// fingerprint the finding's (as SARIF's partialFingerprints), so that
// GitLab follows it across pipelines. Then a critical issue of the check
// "unreadable" for each report that could not be fully read. GitLab shows
// one issue per fingerprint: a fingerprint that two issues share (two
// findings of one key at one file) is made distinct, in the order of the
// findings. Control characters are escaped as in findings.json.
func RenderCodeClimate(s *Synthesis, dir string) ([]byte, error) {
	issues := []codeClimateIssue{}
	seen := map[string]int{}
	add := func(is codeClimateIssue) {
		fp := is.Fingerprint
		if n := seen[fp]; n > 0 {
			is.Fingerprint = fingerprint(fmt.Sprintf("%s:%d", fp, n), "")
		}
		seen[fp]++
		issues = append(issues, is)
	}
	for _, f := range s.Findings {
		if f.Suppressed() != nil {
			continue // accepted in the configuration: no issue to show on a merge request
		}
		ref := ciLocation(dir, f)
		is := codeClimateIssue{Type: "issue", CheckName: string(f.Severity), Description: message(f),
			Severity: codeClimateSeverity(f.Severity), Fingerprint: f.Fingerprint,
			Location: codeClimateLocation{Path: ref.Path, Lines: codeClimateLines{Begin: max(ref.Start, 1)}}}
		if ref.End > ref.Start && ref.Start > 0 {
			is.Location.Lines.End = ref.End
		}
		add(is)
	}
	for _, u := range unreadAgents(s, dir) {
		add(codeClimateIssue{Type: "issue", CheckName: unreadRule, Description: u.message(), Severity: "critical",
			Fingerprint: fingerprint(unreadRule+":"+u.agent, ""),
			Location:    codeClimateLocation{Path: u.file, Lines: codeClimateLines{Begin: max(u.line, 1)}}})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(issues); err != nil {
		return nil, fmt.Errorf("encode Code Climate: %w", err)
	}
	return inert.EscapeJSON(b.Bytes()), nil
}
