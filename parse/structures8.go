package parse

import "strings"

// The structures issue #26's probes 7 and 8 found unread (SPEC §2.3):
// rules for lines that carry several fields, trackers' items, levels
// separated from their heading by a comment, and scanners' lines rated
// at their end. Each is hooked into readGeneral (general.go) in one place.

// fieldSep separates the fields of one line: "·" or "•".
func fieldSep(r rune) bool { return r == '·' || r == '•' }

// fieldSegments reads a line of several fields separated by middle dots or
// bullets, as trackers export an issue and evaluations rate a case
// ("**Type:** Bug · **Priority:** High · **Status:** Open", "Severity:
// Critical · ASR 34% · Category: jailbreak"): the severity field among
// them (as sevFieldAny gives it) and the status fields. A line with no
// separator gives nil; so does one with no severity field unless it
// opens with a field and holds a status field ("**Lead:** ana ·
// **Status:** Resolved").
func fieldSegments(t string) (sev []string, status [][]string) {
	if !strings.ContainsRune(t, '·') && !strings.ContainsRune(t, '•') {
		return nil, nil
	}
	segs := strings.FieldsFunc(t, fieldSep)
	if len(segs) < 2 {
		return nil, nil
	}
	defer func() {
		if sev == nil && (status == nil || !fieldShaped(strings.TrimSpace(segs[0]))) {
			sev, status = nil, nil
		}
	}()
	for _, s := range segs {
		s = strings.TrimSpace(s)
		if sev == nil {
			if m := sevFieldAny(s); m != nil {
				sev = m
				continue
			}
		}
		if m := statusFieldOf(s); m != nil {
			status = append(status, m)
		}
	}
	return sev, status
}

// trackerItem reads a tracker's item written as its key, its level and its
// state before its title ("**ENG-12** · Urgent · Todo — Title"): the
// item's text as "KEY: Title", its level and its state ("" when it gives
// none). The key and the level are required; every segment before the
// title must be a key, a level or a short state.
func trackerItem(body string) (text, level, state string, ok bool) {
	head, title, found := strings.Cut(body, " — ")
	if !found {
		head, title, found = strings.Cut(body, " – ")
	}
	title = strings.TrimSpace(title)
	if !found || title == "" || !strings.ContainsAny(head, "·•") {
		return "", "", "", false
	}
	segs := strings.FieldsFunc(head, fieldSep)
	key := strings.Trim(strings.TrimSpace(segs[0]), "*_`")
	if !trackerKey(key) {
		return "", "", "", false
	}
	for _, s := range segs[1:] {
		s = strings.Trim(strings.TrimSpace(s), "*_`")
		if _, cl, isLevel := fieldSeverity("priority", s); isLevel && cl == sevFinding && level == "" {
			level = s
			continue
		}
		if state == "" && len(s) <= 20 && s != "" && !strings.ContainsAny(s, ":.,") {
			state = s
			continue
		}
		return "", "", "", false
	}
	if level == "" {
		return "", "", "", false
	}
	return key + ": " + title, level, state, true
}

// trackerKey reports whether s is an issue key: capitals (and digits after
// the first), a hyphen and a number ("ENG-2210", "SEC1-4").
func trackerKey(s string) bool {
	p, n, ok := strings.Cut(s, "-")
	if !ok || len(p) < 2 || len(p) > 10 || n == "" || len(n) > 7 || p[0] < 'A' || p[0] > 'Z' {
		return false
	}
	for i := 1; i < len(p); i++ {
		if !(p[i] >= 'A' && p[i] <= 'Z' || isDigit(p[i])) {
			return false
		}
	}
	for i := 0; i < len(n); i++ {
		if !isDigit(n[i]) {
			return false
		}
	}
	return true
}

// levelAlone cuts the word "severity" or "priority" after a level written
// alone ("High Severity", "Low priority"), as a review bot rates the
// heading above it: the level.
func levelAlone(v string) string {
	if i := strings.LastIndexByte(v, ' '); i > 0 {
		if w := v[i+1:]; strings.EqualFold(w, "severity") || strings.EqualFold(w, "priority") {
			return strings.TrimSpace(v[:i])
		}
	}
	return v
}

// quietBetween reports whether lines a+1 … b-1 are blank or masked, not
// fenced: an HTML comment a review bot puts between a finding's heading
// and its level ("<!-- LOCATIONS START … -->") is no text between them.
func quietBetween(lines []line, a, b int) bool {
	for k := a + 1; k < b; k++ {
		if strings.TrimSpace(lines[k].text) != "" && (!lines[k].masked || lines[k].fenced) {
			return false
		}
	}
	return true
}

// trailingRating reads a scanner's result written as a plain line and
// rated by fields in parentheses at its end ("[file.go:27] - G401
// (CWE-328): Use of weak hash (Confidence: HIGH, Severity: MEDIUM)"): the
// line as "[MEDIUM] Use of weak hash", its location and rule cut. Every
// part in the parentheses must be a field, one of them a severity field
// of a finding's level; otherwise it gives "".
func trailingRating(t string) string {
	if len(t) < 12 || t[len(t)-1] != ')' {
		return ""
	}
	o := strings.LastIndexByte(t, '(')
	if o <= 0 {
		return ""
	}
	level := ""
	for _, part := range strings.Split(t[o+1:len(t)-1], ",") {
		name, v, ok := strings.Cut(part, ":")
		name, v = strings.TrimSpace(name), strings.TrimSpace(v)
		if !ok || name == "" || v == "" || strings.ContainsRune(name, ' ') {
			return ""
		}
		if strings.EqualFold(name, "severity") {
			if _, cl, ok := oneSeverity(v, false); !ok || cl != sevFinding {
				return ""
			}
			level = v
		}
	}
	title := strings.TrimSpace(t[:o])
	if level == "" || title == "" {
		return ""
	}
	if title[0] == '[' {
		// "[path:line] - RULE (CWE-n): Title": the location and rule go.
		if e := strings.IndexByte(title, ']'); e > 0 {
			title = strings.TrimLeft(title[e+1:], " -–—")
		}
		if r, rest, ok := strings.Cut(title, ": "); ok && !strings.ContainsRune(strings.TrimSpace(r), ' ') ||
			ok && strings.Count(r, " ") == 1 && strings.HasSuffix(r, ")") {
			title = strings.TrimSpace(rest)
		}
	}
	if title == "" {
		return ""
	}
	return "[" + level + "] " + title
}

// incidentTitles reads a report's title rated by an incident level at its
// end ("# Postmortem: checkout outage (SEV-1)", "# Incident 2026-11-17 —
// API errors (SEV-2)") as the rating of the report as a whole
// (general.overall), not a label: the level rates the incident the
// report is about, not the sections under the title, which would
// otherwise read as a P0/P1 group ("Root cause", "Action items"). As for
// an overall field, a title marked resolved ("**Status:** Resolved") is
// no rating to answer for. Only the first heading, of level 1, and only
// an SEV-n level in parentheses or after a dash, not at the title's
// start.
func (g *general) incidentTitles(lines []line, nodes []gnode) {
	for k := range nodes {
		n := &nodes[k]
		if n.kind != 'h' {
			continue
		}
		if n.rank == 1 && n.parent < 0 && n.lab.ok && n.lab.inner && incidentLevel(n.lab.word) {
			if n.lab.sev.Rank() <= 1 && !n.resolved && n.i < len(lines) {
				g.overall = append(g.overall, orphan{line: lines[n.i].num, sev: n.lab.sev, word: n.lab.word, overall: true})
			}
			n.lab = label{}
		}
		return
	}
}

// incidentLevel reports whether w is an incident's level: "SEV-1",
// "Sev 2", "SEV0".
func incidentLevel(w string) bool {
	w = strings.TrimSpace(w)
	if len(w) < 4 || !strings.EqualFold(w[:3], "sev") {
		return false
	}
	w = strings.TrimLeft(w[3:], "- ")
	return len(w) == 1 && isDigit(w[0])
}

// ratedLead rewrites the text of an item or a bold lead-in that a level
// spelled out rates, into the form labelOf reads; it gives "" for any
// other text:
//   - a priority spelled out at its start, set apart by a dash or a colon
//     ("**Priority 1 — Title**", "Priority 2: Title"), or an S-level
//     before a dash in a plain item ("S1 — Title"): the level is written
//     as its P-level ("**P1 — Title**"), as a P-level there would be read
//     (a legend's items included);
//   - a bold title followed by a dash and a rating clause ("**Title** —
//     risk 9/10 (critical). …", "**Title** – severity: high"): the
//     level in parentheses after the title ("**Title** (critical) …");
//   - a word ID, a level in capitals and a title with no dash between
//     ("Result #1 HIGH Title"): the dash put in (idLevelLine);
//   - a bold title followed by a dash and a failed check's rating ("-
//     [ ] **Title** — ❌ FAIL (Blocker): …"): likewise.
func ratedLead(text string) string {
	t := strings.TrimSpace(text)
	if r := idLevelLine(t); r != "" {
		return r
	}
	inner := strings.TrimLeft(t, "*_")
	if len(inner) < len(t)-2 {
		return ""
	}
	if i, n := leadSep(inner); i > 0 && i <= 14 {
		head := strings.TrimRight(inner[:i], "*_ ")
		rest := strings.TrimSpace(inner[i+n:])
		// An S-level is read only as a plain item's lead set apart by a
		// dash ("S1 — Title"): in bold or before a colon it is as often an
		// ID ("**S1 — Suggestion.**") or a term defined ("S1: Structural
		// stability").
		sdash := len(inner) == len(t) && strings.TrimSpace(inner[i:i+n]) != ":" && !strings.Contains(inner[i:i+n], "*")
		if _, ok := priorityLevel(head); ok || sdash && len(head) == 2 && head[0]|0x20 == 's' {
			if sev, c, ok := fieldSeverity("severity", head); ok && c == sevFinding && strings.Trim(rest, "*_ ") != "" {
				return strings.Replace(t, head, string(sev), 1)
			}
		}
	}
	lead, after, ok := boldLead(t)
	if !ok {
		return ""
	}
	a := strings.TrimSpace(after)
	d := strings.TrimLeft(a, "—–-")
	if len(d) == len(a) || len(a)-len(d) > len("—") {
		return ""
	}
	d = strings.TrimSpace(d)
	if v, more, ok := failedRating(d); ok {
		return "**" + lead + "** (" + v + ")" + more
	}
	clause, more := d, ""
	if e := strings.IndexAny(d, ".;"); e > 0 {
		clause, more = d[:e], d[e:]
	}
	name, value, _ := strings.Cut(clause, " ")
	name = strings.ToLower(strings.TrimSuffix(name, ":"))
	switch name {
	case "risk", "severity", "impact", "priority", "criticality":
	default:
		return ""
	}
	value = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(value), ":"))
	if strings.HasSuffix(value, ")") {
		if o := strings.LastIndexByte(value, '('); o >= 0 {
			value = value[o+1 : len(value)-1]
		}
	}
	if sev, c, ok := fieldSeverity(name, value); !ok || c != sevFinding || sev == "" {
		return ""
	}
	return "**" + lead + "** (" + strings.TrimSpace(value) + ")" + more
}

// leadSep finds the first dash or colon that sets a lead apart: its
// index and length, or -1.
func leadSep(s string) (int, int) {
	best, n := -1, 0
	for _, sep := range []string{" — ", " – ", ": ", " - ", ":** ", "** — ", "** – "} {
		if i := strings.Index(s, sep); i > 0 && (best < 0 || i < best) {
			best, n = i, len(sep)
		}
	}
	return best, n
}

// countList reports whether s is a tally: a count ("3 issues", isCount)
// or counts separated by commas, each of which may name its kind in one
// word ("1 blocking issue, 1 other issue", "2 open issues found"), as a
// review bot sums up an area ("🔴 **Security**: 1 blocking issue"):
// the line counts findings written elsewhere and is none itself.
func countList(s string) bool {
	if isCount(s) {
		return true
	}
	if s == "" || !isDigit(s[0]) || len(s) > 120 {
		return false
	}
	for _, part := range strings.Split(s, ",") {
		f := strings.Fields(part)
		if len(f) == 3 || len(f) == 4 && strings.EqualFold(f[3], "found") {
			// "1 blocking issue": the kind word goes.
			f = append(f[:1:1], f[2:]...)
		}
		if !isCount(strings.Join(f, " ")) {
			return false
		}
	}
	return true
}

// failedRating reads a failed check's rating after a title's dash: a
// mark, FAIL or both, then a level in parentheses ("❌ FAIL (Blocker):
// …", "✗ (Major) …"): the level and what follows it. A passed check
// ("✅ PASS") or a level that is no finding's gives false.
func failedRating(d string) (level, more string, ok bool) {
	r := strings.TrimSpace(trimEmoji(d))
	for _, w := range []string{"FAILED", "FAIL"} {
		if len(r) >= len(w) && strings.EqualFold(r[:len(w)], w) {
			r = strings.TrimSpace(r[len(w):])
			break
		}
	}
	if len(r) == len(strings.TrimSpace(d)) || !strings.HasPrefix(r, "(") {
		return "", "", false // neither a mark nor FAIL: a sentence
	}
	e := strings.IndexByte(r, ')')
	if e < 2 {
		return "", "", false
	}
	v := strings.TrimSpace(r[1:e])
	if _, c, ok := oneSeverity(v, false); !ok || c != sevFinding {
		return "", "", false
	}
	return v, r[e+1:], true
}

// fieldHeading reads a heading that is a severity field and nothing else
// (m, as sevFieldOf gives it: "### Criticality: High", "### Критичность:
// Критическая") as a label with no title, as "### High" would be: the
// level of the findings under it.
func fieldHeading(m []string) (label, bool) {
	v := strings.TrimSpace(stripBold(m[2]))
	if v == "" || strings.ContainsAny(v, "—–") {
		return label{}, false
	}
	sev, c, ok := fieldSeverity(m[1], v)
	if !ok || c != sevFinding {
		return label{}, false
	}
	return label{ok: true, sev: sev, class: c, word: v, empty: true}, true
}

// idLevelLine reads a scanner's result written as a word ID, a level in
// capitals and a title with nothing between them ("Result #1 HIGH Security
// group allows ingress", "Finding 3 CRITICAL Token in logs"): the line
// with a dash after the level, as "Result #1 HIGH — Title" is read. A
// level in lower case or a title in lower case is a sentence: "".
func idLevelLine(t string) string {
	m := wordIDAt(t)
	if m == nil || m[3] >= len(t) || t[m[3]] != ' ' {
		return ""
	}
	w, title, ok := strings.Cut(strings.TrimLeft(t[m[3]:], " "), " ")
	title = strings.TrimSpace(title)
	if !ok || len(w) < 3 || strings.ToUpper(w) != w || title == "" || !isUpperWord(title) {
		return ""
	}
	if _, c, ok := oneSeverity(w, false); !ok || c != sevFinding {
		return ""
	}
	return t[:m[3]] + " " + w + " — " + title
}
