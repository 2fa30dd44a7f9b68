package parse

import (
	"strings"
	"unicode"
)

// A run of three or more sibling items that each name the next severity
// (P0, P1, P2; Critical, High, Medium) is either a legend of the levels or
// a short list of findings, one of each level. The two look alike; what
// tells them apart is what the items say and what introduces them:
//
//   - a legend's item defines a level: a range of levels ("P0/P1"), a
//     count or a time (a tally, "High: 9 minutes"), what to do and when
//     ("must fix before merge", "fix this sprint"), or a class of problem
//     ("data loss or an outage", "a broken feature");
//   - a legend is introduced as a scale: the line above the list, the bold
//     label it stands under or its heading names levels, a legend, tiers,
//     labels, a priority or a severity ("Tiered gates by priority:",
//     "## Labels", "## Output priority");
//   - a finding's item names a concrete defect: code, an identifier, a
//     quoted value; or the list is introduced as findings ("## Findings",
//     "Issues found:", "# Review of the search service").
//
// In that order of strength: a range or tallies; an introduction by a
// strong word ("levels", "legend"; "findings", "issues"); a concrete item;
// items that mostly define; an introduction by a weak word ("priority";
// "review"). A run that is none of these is read as neither, and never
// silently: each of its P0 and P1 items is a line that named a severity
// and gave no finding (SPEC §2.3 "never silently safe", §2.5 unreadable).
// A word test alone was tried and dropped: a policy list ("P0/P1: Hard
// gates enforced") has no defining word and is a legend by its range.

// legendClass is what a run of next-level items was judged to be.
type legendClass int

const (
	runLegend   legendClass = iota // a legend of the levels: no findings
	runFindings                    // findings, one of each level
	runUnsure                      // either: no findings, each P0/P1 item a diagnostic
)

// classifyLevelRun judges the run nodes[k:end] of items that each name the
// next severity.
func classifyLevelRun(lines []line, nodes []gnode, k, end int) legendClass {
	defining, concrete, counts := 0, 0, 0
	for j := k; j < end; j++ {
		w := nodes[j].lab.word
		if j < end-1 && strings.ContainsAny(w, "/-") && nodes[j].lab.sev.Rank() < nodes[j+1].lab.sev.Rank() {
			return runLegend // "P0/P1: …" then "P2/P3: …": a range of levels
		}
		title := nodes[j].lab.title
		switch {
		case emptyTitle(title):
			counts++ // "High: 2", "Critical: 9 minutes": a tally
		case concreteText(title):
			concrete++
		case definingText(title):
			defining++
		}
	}
	n := end - k
	if counts == n {
		return runLegend
	}
	intro, strong := introClass(lines, nodes, k)
	switch {
	case intro != runUnsure && strong:
		return intro // "Severity levels:", "## Findings"
	case concrete > 0:
		return runFindings
	case 2*(defining+counts) > n:
		return runLegend
	case intro != runUnsure:
		return intro // "# Review", "## Priorities"
	}
	return runUnsure
}

// introClass judges what introduces the run that starts at nodes[k]: the
// paragraph line right above its first item, else the bold label it stands
// under, else its heading. The nearest of them that names a scale or
// findings decides, and says whether it names a scale strongly; runUnsure
// when none does.
func introClass(lines []line, nodes []gnode, k int) (legendClass, bool) {
	i := nodes[k].i - 1
	for i >= 0 && !lines[i].masked && lines[i].level == 0 && strings.TrimSpace(lines[i].text) == "" {
		i--
	}
	if i >= 0 && paraLine(lines[i]) {
		if kind, _, _ := listItem(lines[i].text); kind == 0 {
			if c, strong := scaleOrFindings(lines[i].text); c != runUnsure {
				return c, strong
			}
		}
	}
	for p := nodes[k].parent; p >= 0; p = nodes[p].parent {
		if nodes[p].kind != 'h' && nodes[p].kind != 'b' {
			continue
		}
		if c, strong := scaleOrFindings(nodes[p].text); c != runUnsure {
			return c, strong
		}
		if nodes[p].kind == 'h' {
			break
		}
	}
	return runUnsure, false
}

// scaleOrFindings judges a line that introduces a list: runFindings when it
// names findings ("Findings", "Issues found", "Code review"), runLegend
// when it names a scale ("Severity levels", "Labels", "by priority"), else
// runUnsure; strong when it names them by a strong word. A strong word
// beats a weak one of the other side ("Findings by severity", "Review
// legend"); with two strong ones the scale wins ("Issue labels").
func scaleOrFindings(s string) (c legendClass, strong bool) {
	var scale, findings int // 0 none, 1 weak, 2 strong
	for _, w := range lowerWordsOf(s) {
		switch w {
		case "legend", "legends", "scale", "scales", "level", "levels", "tier", "tiers", "tiered", "label", "labels",
			"labelled", "labeled", "definition", "definitions", "rubric", "classification", "meaning", "meanings",
			"key", "glossary", "sla", "slas":
			scale = 2
		case "severity", "severities", "priority", "priorities", "prioritization", "prioritisation", "rating",
			"ratings", "urgency", "triage":
			scale = max(scale, 1)
		case "finding", "findings", "issue", "issues", "problem", "problems", "bug", "bugs", "defect", "defects",
			"vulnerability", "vulnerabilities", "concern", "concerns", "flaw", "flaws", "found", "identified":
			findings = 2
		case "review", "audit", "observations", "result", "results":
			findings = max(findings, 1)
		}
	}
	switch {
	case scale == 0 && findings == 0:
		return runUnsure, false
	case scale == 2 || scale > findings:
		return runLegend, scale == 2
	}
	return runFindings, findings == 2
}

// concreteText reports whether an item's text names a concrete thing, as a
// finding does and a legend does not: code in backticks, a quoted value, a
// path or file name, a call, or an identifier (snake_case, camelCase,
// dotted.name).
func concreteText(s string) bool {
	if strings.ContainsAny(s, "`\"“") || strings.Contains(s, "()") {
		return true
	}
	for _, f := range strings.Fields(s) {
		f = strings.Trim(f, ".,;:!?()[]*_'")
		if identifierLike(f) {
			return true
		}
	}
	return false
}

// identifierLike reports whether a word is written as code: letters joined
// by an underscore, a dot or a slash (snake_case, pkg.Func, src/auth), or a
// lower-case letter followed by an upper-case one (camelCase).
func identifierLike(w string) bool {
	prevLetter, prevLower := false, false
	for i, r := range w {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case (r == '_' || r == '.' || r == '/') && prevLetter && i+1 < len(w):
			next := rune(w[i+1])
			if unicode.IsLetter(next) || unicode.IsDigit(next) {
				return true
			}
		case unicode.IsUpper(r) && prevLower:
			return true
		}
		prevLetter, prevLower = letter, unicode.IsLower(r)
	}
	return false
}

// definingText reports whether an item's text defines a level, as a
// legend's does: what to do and when ("must fix before merge", "fix this
// sprint", "drop everything", "nice to have"), or a class of problem
// ("security vulnerabilities", "data loss or an outage", "any crash", "a
// broken feature").
func definingText(s string) bool {
	ws := lowerWordsOf(s)
	if len(ws) > 0 && (ws[0] == "a" || ws[0] == "an") {
		return true // "a broken feature": a class, not one defect
	}
	for i, w := range ws {
		switch w {
		case "must", "should", "fix", "fixed", "block", "blocks", "blocking", "release", "merge", "merging",
			"ship", "shipping", "deploy", "immediately", "immediate", "asap", "within", "sprint", "backlog",
			"everything", "optional", "eventually", "later", "soon", "hours", "days", "week", "weeks", "sla",
			"any", "or", "issues", "problems", "bugs", "defects", "vulnerabilities", "errors", "findings",
			"workaround", "consider", "cosmetic", "polish":
			return true
		case "nice":
			if i+2 < len(ws) && ws[i+1] == "to" && ws[i+2] == "have" {
				return true
			}
		}
	}
	return false
}

// lowerWordsOf splits s into its words, lower-cased.
func lowerWordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
