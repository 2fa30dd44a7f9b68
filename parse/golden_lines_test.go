package parse

import (
	"fmt"
	"strings"
	"testing"
)

// findingLines writes findings as the golden cases state them: "P1
// Title", or "P1 ID: Title" when it has an ID, each after prefix.
func findingLines(prefix string, fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if f.ID != "" {
			out = append(out, fmt.Sprintf("%s%s %s: %s", prefix, f.Severity, f.ID, f.Title))
		} else {
			out = append(out, fmt.Sprintf("%s%s %s", prefix, f.Severity, f.Title))
		}
	}
	return out
}

// readLines is all a golden case states of a report read: its open
// findings, its resolved ones ("resolved P1 Title"), and "unreadable" when
// it is.
func readLines(r *Report) []string {
	out := append(findingLines("", r.Findings), findingLines("resolved ", r.Resolved)...)
	if r.Status == StatusUnreadable {
		out = append(out, "unreadable")
	}
	return out
}

// openLines is what a golden case of open findings only states of a
// report read: its open findings.
func openLines(r *Report) []string { return findingLines("", r.Findings) }

// checkLines reads report and holds what lines states of it to want.
func checkLines(t *testing.T, report string, want []string, lines func(*Report) []string) {
	t.Helper()
	r := ReadReport([]byte(report))
	if got := lines(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("status %s, read:\n%s\nwant:\n%s\ndiagnostics: %v", r.Status, strings.Join(got, "\n"),
			strings.Join(want, "\n"), r.Diagnostics)
	}
}
