package parse

import "testing"

func TestNotReportTitle(t *testing.T) {
	for _, c := range []struct {
		title string
		want  int
	}{
		{"Changelog", docOther},
		{"CHANGELOG", docOther},
		{"Release Notes — 2.4", docOther},
		{"Sprint 45 plan", docOther},
		{"Q3 roadmap (draft)", docOther},
		{"Code style guide", docOther},
		{"Instructions for the security reviewer", docOther},
		{"Reviewer instructions", docOther},
		{"Severity definitions", docOther},
		{"Meeting notes: weekly sync", docOther},
		{"Security review checklist", docChecklist},
		{"Checklist for the release", docChecklist},
		{"Correctness Review: Migration Plan", docReport},
		{"Storage Migration Plan — Correctness Review", docReport},
		{"Architecture Review Plan", docReport},
		{"Review of the sprint plan", docReport},
		{"Audit of the deployment guide", docReport},
		{"Release checklist review", docReport},
		{"Security audit", docReport},
		{"Code review: payments", docReport},
		{"Plan 9 port findings", docReport},
		{"Changes", docOther},
		{"Changes 2.4.1", docOther},
		{"Requested changes", docReport},
		{"Suggested changes", docReport},
		{"", docReport},
	} {
		if got := notReportTitle(c.title); got != c.want {
			t.Errorf("notReportTitle(%q) = %d, want %d", c.title, got, c.want)
		}
	}
}
