package parse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// actionColumn returns the column of a table's header cells that names
// what is to be done about each row ("| # | Action | Owner | Priority |",
// "Action item", "Corrective action", "Task", "Follow-up"), else -1. A
// table that rates such rows by a severity column and names them nowhere
// else lists its findings as the work they call for (SPEC §2.3 rule 4):
// a postmortem's action items. Under a plan's heading, or in a document
// that is a plan, such rows are a plan's and give no finding (restate.go,
// notReportTitle).
func actionColumn(cells []string) int {
	for j, raw := range cells {
		name := strings.ToLower(strings.TrimSpace(trimEmoji(stripBold(raw))))
		f := strings.Fields(name)
		if len(f) == 0 || len(f) > 3 {
			continue
		}
		switch f[len(f)-1] {
		case "action", "actions", "task", "tasks", "follow-up", "follow-ups", "followup", "todo", "to-do":
			return j
		case "item", "items":
			if len(f) > 1 && strings.HasPrefix(f[len(f)-2], "action") {
				return j // "Action item"
			}
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

// markedLead reads a line that a severity mark opens before a bold part
// no rule read ("🟠 **Token not rotated** — the refresh token …", "🔴
// **Security:** hard-coded key"): as "🟠 Token not rotated" is read
// (labelText, rule f), the mark rates it. A bold part of two words or
// more that no colon ends is the title; a bold category keeps the words
// after it.
func markedLead(raw, lead string, kind byte) label {
	if _, _, ok := leadMark(raw); !ok {
		return label{}
	}
	lab := labelText(stripBold(raw), kind)
	if !lab.ok {
		return label{}
	}
	l := strings.TrimSpace(lead)
	if len(strings.Fields(l)) >= 2 && !strings.HasSuffix(l, ":") {
		if title, id := plainTitle("**"+l+"**", kind); !emptyTitle(title) {
			lab.title, lab.id = title, id
		}
	}
	return lab
}

// markedPara returns the paragraph t as a bold lead-in when it opens
// with a severity mark before its title, as an item does for rule f of
// labelText ("🟠 **Token not rotated** — the refresh token …", "🔴
// Admin API has no auth — anyone can call it"; an italic title, "🔴
// *Bucket is public* — …", is made bold), else "". It is read by
// markedLead or labelText (a mark of P3 by markEmojiScale, beside marks
// of its own). What follows the mark opens as a title does (a letter, a
// digit, emphasis or code): "🔴 = blocker" is a legend, "🔴 2 critical"
// a tally, "🔴 CRITICAL — …" a severity read as such (emojiBoldLead,
// plainLabel) and "🔴 Verdict: …" a verdict.
func markedPara(t string) string {
	r, n := utf8.DecodeRuneInString(t)
	if n < 2 || !isEmojiRune(r) {
		return ""
	}
	if _, c, ok := oneSeverity(t[:n], false); !ok || c != sevFinding {
		return ""
	}
	rest := trimEmoji(t)
	if strings.HasPrefix(rest, "**") {
		return t
	}
	if rest == "" || sweepTally(rest) || verdictLead(rest) {
		return ""
	}
	f, _ := utf8.DecodeRuneInString(rest)
	if !unicode.IsLetter(f) && !unicode.IsDigit(f) && !strings.ContainsRune("*_`", f) {
		return ""
	}
	if _, _, ok := leadMark(t); !ok || len(strings.Fields(rest)) < 3 || startsWithSeverity(strings.TrimLeft(rest, "*_")) {
		return "" // a mark of P3 before plain words is praise, or a P3 read beside its marks
	}
	if e := rest[0]; e == '*' || e == '_' {
		// "*Bucket is public* — …": the italic part is the title.
		if j := strings.IndexByte(rest[1:], e); j > 0 && rest[1] != ' ' {
			return t[:len(t)-len(rest)] + "**" + rest[1:1+j] + "**" + rest[2+j:]
		}
	}
	return t
}

// sLevelWords reads a slot's S-level that names its level in words too:
// "S1 (Critical)", "S2 – High", "s3: Medium". The words rate it when
// they are a severity (they state what the code's scale leaves to the
// reader), else the code does ("S2 (regression)").
func sLevelWords(s string) (Severity, bool) {
	t := strings.TrimSpace(stripBold(s))
	if len(t) < 4 {
		return "", false
	}
	sev, ok := sLevel(t[:2])
	if !ok {
		return "", false
	}
	rest := strings.TrimLeft(t[2:], " \t")
	if len(rest) == len(t[2:]) && rest[0] != '(' && rest[0] != ':' {
		return "", false // "S1x"
	}
	words := strings.TrimSpace(strings.TrimLeft(rest, "(:—–- \t"))
	if len(words) == len(rest) && rest[0] != '(' {
		return "", false // "S1 and S2": a second value, not its words
	}
	words = strings.TrimSpace(strings.TrimSuffix(words, ")"))
	if w, c, ok := severityValue(words, true); ok && c == sevFinding {
		return w, true
	}
	return sev, true
}

// placeTail reports whether the words after an item's bracketed level
// say where the finding is, as a scanner lists an advisory: "Prototype
// Pollution (Critical) in lodash@4.17.15", "SQL injection (High) in the
// search form", "XSS (High) found in the comment form". They open with a
// preposition of place, or a participle and a preposition, and are a
// short phrase, no second sentence; the level before them is a
// capitalised word (itemBracket), not "(P1)" inside a sentence ("Shows
// the top item (P1) not the list") nor "(blocking)".
func placeTail(word, tail string) bool {
	w := strings.TrimSpace(trimEmoji(word))
	r, _ := utf8.DecodeRuneInString(w)
	if w == "" || !unicode.IsUpper(r) || IsPLevel(strings.Fields(w)[0]) {
		return false
	}
	f := strings.Fields(tail)
	if len(f) < 2 || len(f) > 7 || strings.Contains(strings.TrimRight(tail, ". \t"), ". ") {
		return false
	}
	place := func(p string) bool {
		switch p {
		case "in", "at", "on", "via", "from", "inside", "within", "under", "through", "across":
			return true
		}
		return false
	}
	if place(f[0]) {
		return true
	}
	// "found in", "used for", "exposed via": a participle that says
	// where a defect was met, then where.
	switch f[0] {
	case "found", "seen", "detected", "reported", "exposed", "introduced", "located", "present", "reachable", "used":
		return len(f) >= 3 && (place(f[1]) || f[1] == "for" || f[1] == "by")
	}
	return false
}

// planOrphans makes the P0/P1 items of a report's plan of fixes orphans
// when the report labels nothing else (SPEC §2.3 "never silently safe").
// A plan's priorities are work to schedule, not findings (restate.go):
// beside the findings of a review they add nothing. But a report whose
// only labels are its plan of actions ("## Action plan" of a postmortem,
// "| 1 | Dead-letter bad messages | P0 |") rates work that fixes what
// went wrong as blocking, and no finding was read: it could not be fully
// read, not safe. A plan of objectives, a roadmap or phases ("## Quarter
// objectives" of a status update) plans ahead and fixes nothing.
func (g *general) planOrphans() {
	for i := range g.findings {
		if g.findings[i].cls != clsPlan {
			return
		}
	}
	for i := range g.findings {
		if f := &g.findings[i]; !f.resolved && f.Severity.Rank() <= 1 && !intentSection(f.Section) {
			g.orphans = append(g.orphans, orphan{line: f.Line, sev: f.Severity, word: string(f.Severity)})
		}
	}
}

// intentSection reports whether a plan section states what a team means
// to do ("## Quarter objectives", "Goals", "OKRs", "Roadmap", "Backlog"):
// its priorities rank intentions, not work a review found, and a status
// update or a roadmap that has only those is no report left unread.
func intentSection(head string) bool {
	h := strings.ToLower(head)
	for _, w := range []string{"goal", "objective", "okr", "key result", "roadmap", "backlog", "quarter"} {
		if strings.Contains(h, w) {
			return true
		}
	}
	return false
}

// severityWithNotes reads a bracket that opens with a severity and then
// notes about the finding after a comma or a semicolon: "(P0, @mlee)",
// "(High; owner: payments)", "(Medium, Low Barrier)", "(P0, 4/5
// agents)". A note is short and is no severity ("(P1, P2)", "(High,
// Medium and Low)" list levels), no estimate nor a horizon ("(P1, 2d)",
// "(P2, medium-term)": work to plan, isTask) and no year ("(Medium,
// J. Doe, Apr 2026)" cites an article); an ID after the severity is
// severityAndID's.
func severityWithNotes(inner string) (Severity, sevClass, string, bool) {
	i := strings.IndexAny(inner, ",;")
	if i <= 0 {
		return "", sevNone, "", false
	}
	head, notes := strings.TrimSpace(inner[:i]), inner[i+1:]
	sev, c, ok := severityValue(head, true)
	if !ok || c != sevFinding || isCount(head) {
		return "", sevNone, "", false
	}
	for part := range strings.FieldsFuncSeq(notes, func(r rune) bool { return r == ',' || r == ';' }) {
		p := strings.TrimSpace(part)
		if p == "" || len(strings.Fields(p)) > 4 || isTask("("+p+")") || strings.HasSuffix(strings.ToLower(p), "-term") || hasYear(p) {
			return "", sevNone, "", false
		}
		if _, _, ok := severityValue(p, true); ok {
			return "", sevNone, "", false
		}
	}
	return sev, c, head, true
}

// hasYear reports whether s holds a year of this era as a word of its
// own: "Apr 2026", "2019".
func hasYear(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) {
		if len(w) == 4 && (w[:2] == "19" || w[:2] == "20") {
			return true
		}
	}
	return false
}

// checkColumn returns the column that names what a readiness or
// compliance table checks ("| Area | Check | Severity | Status |",
// "Control", "Requirement"), else -1. Such a table rates each check by
// the harm of failing it and says in its status column which failed:
// a failed or partial check is a finding, a passed one none
// (passedCheck). Without a status column it is a checklist, no list of
// findings.
func checkColumn(cells []string) int {
	for j, raw := range cells {
		switch strings.ToLower(strings.TrimSpace(trimEmoji(stripBold(raw)))) {
		case "check", "checks", "control", "controls", "requirement", "requirements", "criterion", "criteria", "test", "rule":
			return j
		}
	}
	return -1
}

// passedCheck reports whether a check table's status cell says the check
// passed: "Pass", "✅ Passed", "OK", "Compliant", "Met", "Yes", "N/A".
func passedCheck(v string) bool {
	t := strings.ToLower(strings.TrimSpace(stripBold(v)))
	if strings.HasPrefix(t, "✅") || strings.HasPrefix(t, "✔") || strings.HasPrefix(t, "☑") {
		return true
	}
	t = strings.TrimSpace(strings.Trim(trimEmoji(t), "*_`[]()"))
	w, _, _ := strings.Cut(t, " ")
	switch strings.Trim(w, ".,;:—–-") {
	case "pass", "passed", "passing", "ok", "compliant", "met", "yes", "n/a", "na", "green":
		return true
	}
	return false
}
