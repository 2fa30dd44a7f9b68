package parse

import (
	"slices"
	"strings"
	"unicode"
)

// A rated table whose title column has a name no rule knows (SPEC §2.3
// rule 4: a table with a severity column lists findings under any
// heading): "| Area | Check | Status | Severity |", "| Test | Model |
// Severity |", "| Constat | Référence | Gravité |", "| Bevinding | Ernst |".
// The first column no rule names (not an ID, a status, a count, a place,
// an owner or a rating) names each row, when the table has several rows,
// more than two columns or that column before the severity, and the
// severity column rates by severity or risk: a priority, an impact or a
// level orders work to adopt, tasks and criteria as often (a research
// report's "| Pattern | Source | Priority |"), and a table of rules or of
// kinds ("| Rule | Severity | Why |", "| Change class | Risk | Gate |")
// stays unread; so does a table of areas rated by risk ("| Area | Risk |
// Mitigation |": no column is left to name a row). A row counts when its
// cell reads as a title (three words or more, or a name in code), and only
// when the report read no other open P0/P1 (settleGuessed). A P0/P1 row
// whose cell names nothing ("| see above | Alice | Critical |") gave no
// finding: then the report could not be fully read, never silently safe.

// tableRows counts the rows of the table whose header is lines[i] (its
// delimiter row at i+1), up to 2.
func tableRows(lines []line, i int) int {
	n := 0
	for j := i + 2; j < len(lines) && n < 2; j++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[j].text), "|") {
			break
		}
		n++
	}
	return n
}

// guessedTitle reports whether a cell of a guessed title column names a
// finding: three words or more, or a name in code (`unique_order_id`,
// "not_null_email", "api/v1/users").
func guessedTitle(title string) bool {
	f := strings.Fields(title)
	if len(f) >= 3 {
		return true
	}
	if len(f) == 0 {
		return false
	}
	return strings.Contains(title, "`") || strings.ContainsAny(title, "_/:") && strings.IndexFunc(title, unicode.IsLetter) >= 0
}

// guessedRow records a row of a guessed table whose cell did not name a
// finding: a P0/P1 row with words in that cell is unnamed ("| Billing |
// Alice | Critical |"); numbers ("| P0 | 12 | 1 |", hours by priority)
// name nothing.
func (g *general) guessedRow(num int, sev Severity, sevText, title string) {
	if sev.Rank() > 1 || strings.IndexFunc(title, unicode.IsLetter) < 0 {
		return
	}
	g.unnamed = append(g.unnamed, orphan{line: num, sev: sev, word: strings.TrimSpace(stripBold(sevText))})
}

// settleGuessed keeps the rows of guessed tables, and makes the unnamed
// ones orphans, only when the report read no other open P0/P1 finding
// outside a plan: beside findings read elsewhere such a table as often
// rates what a design leaks, areas or components, or restates findings
// covered elsewhere; a report whose labels are only there states them in
// that table.
func (g *general) settleGuessed() {
	other := false
	for i := range g.findings {
		if f := &g.findings[i]; !f.resolved && !f.guessed && f.Severity.Rank() <= 1 && f.cls != clsPlan {
			other = true
			break
		}
	}
	if other {
		g.findings = slices.DeleteFunc(g.findings, func(f gfinding) bool { return f.guessed })
		return
	}
	g.orphans = append(g.orphans, g.unnamed...)
}

// guessable reports whether a rated table's severity column, by its name,
// rates defects: a severity or a risk, in any language, not a priority,
// an impact or a level.
func guessable(name string) bool {
	switch int8(sevColumnRank(name)) {
	case rankSeverity, rankRisk:
		return true
	}
	return name == "threat level"
}

// ruleColumn reports whether a table column names rules or kinds: a table
// of rules and their levels ("| Rule | Severity | Why |") is a linter's or
// a policy's configuration, and one of kinds a scale, not findings,
// unless a column names each row's finding.
func ruleColumn(name string) bool {
	switch name {
	case "rule", "rules", "rule id", "rule name", "lint rule", "check id", "policy":
		return true
	}
	// "| Change class | Risk | Gate |", "| Pattern | Source | Priority |":
	// the rows are kinds of things, rated as kinds.
	f := strings.Fields(name)
	if len(f) > 0 && len(f) <= 3 {
		switch strings.TrimSuffix(f[len(f)-1], "es") {
		case "class", "kind", "type", "category", "categori", "tier", "pattern":
			return true
		}
		switch f[len(f)-1] {
		case "types", "kinds", "patterns", "tiers":
			return true
		}
	}
	return false
}
