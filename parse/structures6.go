package parse

import (
	"strings"
)

// actionColumn returns the column of a table's header cells that names
// what is to be done about each row ("| # | Action | Owner | Priority |",
// "Action item", "Task"), else -1. A table that rates such rows by a
// severity column and names them nowhere else lists its findings as the
// work they call for (SPEC §2.3 rule 4): a postmortem's action items.
// Under a plan's heading, or in a document that is a plan, such rows are
// a plan's and give no finding (restate.go, notReportTitle).
func actionColumn(cells []string) int {
	for j, raw := range cells {
		name := strings.ToLower(strings.TrimSpace(trimEmoji(stripBold(raw))))
		switch name {
		case "action", "actions", "action item", "action items", "task", "tasks", "follow-up", "follow-up action", "todo", "to do":
			return j
		}
	}
	return -1
}

// scaleHeader reports whether a table's header row names a column that
// defines its rows' levels ("| Severity | Meaning | Action |", "|
// Priority | Definition | SLA |"): the table is a rubric of levels, a
// legend, and its rows are no findings whatever its other columns hold.
func scaleHeader(row string) bool {
	for _, raw := range tableCells(row) {
		switch strings.ToLower(strings.TrimSpace(trimEmoji(stripBold(raw)))) {
		case "meaning", "means", "what it means", "definition", "defined as", "criteria", "when to use", "sla",
			"response time", "response sla", "target response", "time to fix":
			return true
		}
	}
	return false
}
