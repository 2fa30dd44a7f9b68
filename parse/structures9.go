package parse

import "strings"

// Structures issue #26's sixth probe (probe9) found unread (SPEC §2.3).

// inflectedLevel reads w, a word of a group heading, as a severity
// adjective inflected to agree with the plural noun it follows, as
// French, Spanish, Portuguese, Italian and German write a group of
// findings: "Points bloquants", "Problemas críticos", "Kritische Punkte",
// "Points mineurs". The vocabulary holds the adjectives' plain forms
// ("bloquant", "crítico", "kritisch"); the word less a plural ending
// ("-s", "-es") or a German one ("-e", "-en") is read as a severity in a
// severity position. Only group headings ask (groupPhrase), where every
// other word names a list of findings.
func inflectedLevel(w string) (Severity, bool) {
	if len(w) < 6 {
		return "", false
	}
	lw := strings.ToLower(w)
	for _, end := range [...]string{"s", "es", "e", "en"} {
		if !strings.HasSuffix(lw, end) {
			continue
		}
		if sev, c, ok := oneSeverity(w[:len(w)-len(end)], true); ok && c == sevFinding {
			return sev, true
		}
	}
	return "", false
}

// clearlyRated reports whether a document rates what it lists as a
// report rates findings: a table whose severity or risk column (a name of
// sevFieldNames of rank severity or risk, not a priority) holds a level,
// a severity or risk field with a level, or a heading that opens with a
// level in brackets ("### [High] Tokens never expire"). A list of who
// took part ("Participants: security guild, backend") opens a threat
// model or an audit as it opens a meeting's notes: it makes a document
// minutes (isTemplate) only when nothing in it is clearly rated. A
// meeting's action items rated by priority stay tasks.
func clearlyRated(lines []line) bool {
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l.masked {
			continue
		}
		t := strings.TrimSpace(l.text)
		if l.level > 0 {
			if strings.HasPrefix(l.head, "[") {
				if j := strings.IndexByte(l.head, ']'); j > 0 {
					if _, c, ok := severityValue(l.head[1:j], true); ok && c == sevFinding {
						return true
					}
				}
			}
			continue
		}
		if strings.HasPrefix(t, "|") && i+1 < len(lines) && isDelimiterRow(lines[i+1].text) {
			if ratedTable(lines, i) {
				return true
			}
			continue
		}
		if m := sevFieldSplit(t); m != nil && sevRank(strings.ToLower(m[1])) <= rankRisk {
			if _, c, ok := severityValue(m[2], true); ok && c == sevFinding {
				return true
			}
		}
	}
	return false
}

// ratedTable reports whether the table whose header is lines[i] has a
// severity or risk column that holds a level in one of its rows.
func ratedTable(lines []line, i int) bool {
	for j, cell := range tableCells(lines[i].text) {
		name := strings.ToLower(strings.TrimSpace(trimEmoji(stripBold(cell))))
		if !sevColumn(name) || sevRank(name) > rankRisk {
			continue
		}
		for k := i + 2; k < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[k].text), "|"); k++ {
			cells := tableCells(lines[k].text)
			if j < len(cells) {
				if _, c, ok := severityValue(stripBold(cells[j]), true); ok && c == sevFinding {
					return true
				}
			}
		}
	}
	return false
}

// linesLead reads the lines a review bot's comment is on when they open
// its badge line in bold or plain words ("**Lines 31-48:** _⚠️ Potential
// issue_ | _🔴 Critical_", "Line 7: _🟡 Minor_"): the rest of the line,
// the badges, which badgeLine reads as it reads them after "`41-58`:".
func linesLead(t string) (string, bool) {
	s := strings.TrimPrefix(t, "**")
	bold := len(s) < len(t)
	var rest string
	switch {
	case strings.HasPrefix(s, "Lines "):
		rest = s[len("Lines "):]
	case strings.HasPrefix(s, "Line "):
		rest = s[len("Line "):]
	default:
		return "", false
	}
	j := strings.IndexByte(rest, ':')
	if j <= 0 || !lineRange(strings.ReplaceAll(strings.TrimSpace(rest[:j]), "–", "-")) {
		return "", false
	}
	rest = rest[j+1:]
	if bold {
		if !strings.HasPrefix(rest, "**") {
			return "", false
		}
		rest = rest[2:]
	}
	return strings.TrimSpace(rest), true
}

// linesBadge reports whether t is a badge line behind the lines it is
// on in bold ("**Lines 31-48:** _⚠️ Potential issue_ | _🔴 Critical_"):
// not a bold title but the severity of the one under it.
func linesBadge(t string) bool {
	if !strings.HasPrefix(t, "**Line") {
		return false
	}
	_, ok := badgeLine(t)
	return ok
}

// wrappedTrail reads the lines that continue the list item at lines[i]
// (body, its text after the marker) when the item wraps and its level
// closes the last of them in parentheses or brackets: "1. Missing CSRF
// token on the settings form was" over "   dropped in the refactor
// (high)". It returns the continuation, which the item's text takes so
// that its trailing level is read as on one line (SPEC §2.3 rule 1); ""
// when the item does not wrap, its first line already ends with a level,
// or the continuation ends with none.
func wrappedTrail(lines []line, i int, body string) string {
	if trailLevel(body) {
		return ""
	}
	var parts []string
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		l := lines[j]
		t := strings.TrimSpace(l.text)
		if t == "" || l.masked || l.level > 0 || !strings.HasPrefix(l.text, "  ") || genNumberingRe.MatchString(t) ||
			len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
			break
		}
		parts = append(parts, t)
		if trailLevel(t) {
			return strings.Join(parts, " ")
		}
	}
	return ""
}

// trailLevel reports whether t ends with a level in parentheses or
// brackets: "… dropped in the refactor (high)", "… [P1]".
func trailLevel(t string) bool {
	t = strings.TrimRight(t, " .")
	if len(t) < 3 || t[len(t)-1] != ')' && t[len(t)-1] != ']' {
		return false
	}
	open := strings.LastIndexAny(t, "([")
	if open < 0 {
		return false
	}
	_, c, ok := severityValue(t[open+1:len(t)-1], true)
	return ok && c == sevFinding
}

// checkStatusLead reports whether t, the text of an item before its
// bracketed level, is only a check's outcome: "❌ FAIL", "⚠️ PARTIAL",
// "Not met". A self-assessment writes "- ❌ FAIL (High) — Offboarding
// does not revoke access": the outcome is no title, the text after the
// level is.
func checkStatusLead(t string) bool {
	t = strings.ToLower(strings.Trim(strings.TrimSpace(trimEmoji(stripBold(t))), "*_:—–- "))
	switch t {
	case "fail", "failed", "failing", "partial", "partially met", "not met", "gap", "non-compliant", "noncompliant",
		"pass", "passed", "met":
		return true
	}
	return false
}

// boldLeadTitle reads the title of a finding whose bold line holds only
// its ID and its level ("**Issue 1 — Priority: High**") from the line
// right under it, its paragraph's first sentence ("Quiet hours are not
// modelled anywhere."); "" when the bold line is not such a line or no
// paragraph follows it at once.
func boldLeadTitle(lines []line, n *gnode, lab label, id, title string) string {
	if n.kind != 'b' || !lab.ok || lab.class != sevFinding || id == "" || !emptyTitle(title) && !lab.empty {
		return ""
	}
	if n.i+1 >= len(lines) || strings.TrimSpace(lines[n.i+1].text) == "" {
		return ""
	}
	return descriptionTitle(lines, n.i)
}

// formTemplate reports whether a document is a form to fill in, as a
// pull request's template is: among its opening lines an HTML comment
// asks the one who fills it a question ("<!-- What does this PR change
// and why? -->"), and no box of it is ticked. Its levels are options to
// tick ("- [ ] 🔴 Critical — production down"), not findings (SPEC
// §2.3: never a template).
func formTemplate(lines []line) bool {
	seen := 0
	for i := 0; i < len(lines) && seen < 8; i++ {
		t := strings.TrimSpace(lines[i].text)
		if t == "" {
			continue
		}
		seen++
		if !strings.HasPrefix(t, "<!--") {
			continue
		}
		c := t
		for j := i + 1; j < len(lines) && j <= i+3 && !strings.Contains(c, "-->"); j++ {
			c += " " + strings.TrimSpace(lines[j].text)
		}
		if k := strings.Index(c, "-->"); k > 0 && strings.Contains(c[:k], "?") {
			return !ticked(lines)
		}
	}
	return false
}
