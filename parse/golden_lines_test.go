package parse

import "fmt"

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
