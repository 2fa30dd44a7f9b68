package parse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The general net (SPEC §2.3 "never silently safe", issue #26). Each rule
// of the general reader reads the structure it was written for; a report
// in a structure none of them reads gave no finding and, when no rule
// recorded an orphan either, came out safe. sweep runs once the reader has
// decided: every line in a place that labels a finding (rule 1: a
// heading, a bullet, a numbered or checkbox item, a bold lead-in, a line
// that opens with a bracketed level; rule 2: a severity field; rule 4: a
// row of a table with a severity column) that names a P0/P1 severity as a
// label, where no finding was read from the line or the block it belongs
// to, is an orphan. It never makes a finding: only the status.

// sweep appends an orphan for each line of lines that labels a P0/P1
// finding the reader did not read. nodes are the reader's nodes, decided;
// g.findings holds what was read, resolved findings included. One pass
// over the lines, and one over the nodes.
func (g *general) sweep(lines []line, nodes []gnode, template bool) {
	if template || len(lines) == 0 {
		return
	}
	// A report that gave an open P0/P1 finding is not called safe: the
	// net is for the reports that would be, and stays out of the way of
	// the rules' own choices in the others. A plan's items are no
	// findings (restate.go): they do not count here.
	for i := range g.findings {
		if f := &g.findings[i]; !f.resolved && f.Severity.Rank() <= 1 && f.cls != clsPlan {
			return
		}
	}
	// What each line is to the reader: whether it was read (a finding's
	// line, an orphan's, a tally's), by its number, and the node on it.
	last := 0
	for i := range lines {
		last = max(last, lines[i].num)
	}
	read := make([]bool, last+1)
	mark := func(num int) {
		if num >= 0 && num <= last {
			read[num] = true
		}
	}
	for i := range g.findings {
		mark(g.findings[i].Line)
	}
	for _, o := range g.orphans {
		mark(o.line)
	}
	for _, o := range g.overall {
		mark(o.line)
	}
	for _, t := range g.tallies {
		mark(t.line)
	}
	for _, u := range g.unmapped {
		mark(u.o.line)
	}
	node := make([]int32, len(lines)) // index in lines → node + 1, 0 for none
	for k := range nodes {
		if i := nodes[k].i; i < len(node) {
			node[i] = int32(k + 1)
		}
	}
	// A node is covered when it, a node over it or a node under it was
	// read: a finding's own lines, a group's heading. Children come
	// after their parents, so one pass back marks the parents.
	covered := make([]bool, len(nodes))
	for k := range nodes {
		if i := nodes[k].i; i < len(lines) && read[lines[i].num] || nodes[k].finding {
			covered[k] = true
		}
	}
	for k := len(nodes) - 1; k >= 0; k-- {
		if p := nodes[k].parent; p >= 0 && covered[k] {
			covered[p] = true
		}
	}
	for k := range nodes {
		if p := nodes[k].parent; p >= 0 && covered[p] && (nodes[p].finding || nodes[p].kind != 'h') {
			covered[k] = true // a line of a finding's block, or an item's
		}
	}
	// Nodes where no label is a finding: a legend, a template's slots, a
	// section that restates or plans, a resolved block, or under one.
	// Known only for the nodes a label stands in, once each: 1 quiet, 2
	// not.
	quiet := make([]int8, len(nodes))
	var walk []int
	isQuiet := func(k int) bool {
		walk = walk[:0]
		for ; k >= 0 && quiet[k] == 0; k = nodes[k].parent {
			walk = append(walk, k)
		}
		q := k >= 0 && quiet[k] == 1
		for j := len(walk) - 1; j >= 0; j-- {
			q = q || sweepQuiet(&nodes[walk[j]])
			quiet[walk[j]] = 2
			if q {
				quiet[walk[j]] = 1
			}
		}
		return q
	}
	// Lines that stand in no node: the last heading's state says whether
	// their block is covered, a legend or a section that restates.
	headNode := -1 // the node of the innermost heading over the line
	for i := range lines {
		l := lines[i]
		if l.masked {
			continue
		}
		t := strings.TrimSpace(l.text)
		if t == "" || t[0] == '|' {
			// A table row is rule 4's: the reader read its rows or
			// decided they are no findings (a plan's priorities, a
			// summary's restatement).
			continue
		}
		k, isNode := int(node[i])-1, node[i] > 0
		if l.level > 0 && isNode {
			headNode = k
		}
		if read[l.num] {
			continue
		}
		// The block the line is in: its own node, else its heading's.
		at := k
		if !isNode {
			at = headNode
		}
		if at >= 0 && covered[at] || isNode && nodes[k].group {
			continue
		}
		if headNode < 0 || lines[nodes[headNode].i].level == 1 {
			// The preamble under the title: a "**Priority:** High"
			// there rates the whole report (general.overall), which
			// the reader weighs on its own.
			if sevFieldOf(strings.TrimLeft(t, "-*+ ")) != nil {
				continue
			}
		}
		sev, word, ok := sweepLabel(t)
		if ok && (at < 0 || !isQuiet(at)) {
			g.orphans = append(g.orphans, orphan{line: l.num, sev: sev, word: word})
		}
	}
}

// sweepQuiet reports whether node n, by itself, stands where no label is
// a finding: a legend, a template's slots, a section that restates or
// plans, a resolved block.
func sweepQuiet(n *gnode) bool {
	return n.legend || n.placeholders || n.cls != clsBody || n.resolvedHead || n.resolvedGroup || n.resolved ||
		n.kind == 'h' && isLegendHeading(n.text)
}

// sweepLabel reads line t (trimmed, not empty) as a place of a label: a
// heading, a list item, a bold lead-in, a line that opens with a bracket
// or a mark, a severity field. It returns the P0/P1 severity the line
// labels itself with, if any: at the start, bold alone, after an emoji, in
// brackets or parentheses, after a dash at the end, as a field's value.
// Running text, tallies, verdicts, templates and resolved items are none.
func sweepLabel(t string) (Severity, string, bool) {
	// The cheap guard: a line with no byte that may open a severity
	// (a letter of the vocabulary's ASCII words, a digit of a P-level, a
	// multibyte rune for marks and other languages) is none.
	if len(t) > 600 || !sweepGuard(t) {
		return "", "", false
	}
	body, place := sweepPlace(t)
	if !place || body == "" {
		return "", "", false
	}
	// The label first; the costlier tests of what makes it none only
	// for a line that holds one.
	m := sevFieldOf(body)
	sev, w, ok := sweepFind(body, m)
	if !ok {
		return "", "", false
	}
	if m == nil {
		if name, ok := anyFieldName(body); ok && !sweepLabelName(name) && !sweepCapitalSeverity(name) {
			return "", "", false // "**Recommendation (must-fix):**": a field of a finding
		}
	}
	if struckEnd(body) || strings.Contains(body, "~~") || resolvedMark(body) || verdictLead(body) {
		return "", "", false
	}
	return sev, w, true
}

// sweepFind reads the label of a place's text body, whose severity field
// match is m (nil when it is none).
func sweepFind(body string, m []string) (Severity, string, bool) {
	// A severity field: "Severity: High", "**Risk:** Critical".
	if m != nil {
		v := strings.TrimSpace(m[2])
		if isCountText(v) || optionList(v) || placeholderTitle(v) {
			return "", "", false
		}
		sev, c, ok := fieldSeverity(m[1], v)
		if ok && c == sevFinding && sev.Rank() <= 1 {
			return sev, strings.TrimSpace(stripBold(v)), true
		}
		return "", "", false
	}
	flat := strings.TrimSpace(stripBold(body))
	// A mark at the start: "🔴 Token reuse", "⛔ BLOCKER — …".
	if sev, w, ok := leadMark(body); ok && sev.Rank() <= 1 {
		rest := strings.TrimSpace(strings.TrimLeft(trimEmoji(flat), "*_ "))
		if rest == "" || rest[0] == '=' || sweepTally(rest) {
			return "", "", false
		}
		if startsWithSeverity(rest) {
			// "🚨 CRITICAL — …" is read as "CRITICAL — …"; "🚨
			// CRITICAL SECURITY REQUIREMENTS" is a section's name.
			return sweepStart(rest)
		}
		return sev, w, true
	}
	if sev, w, ok := sweepStart(trimEmoji(flat)); ok {
		return sev, w, true
	}
	if sev, w, ok := sweepBracket(flat); ok {
		return sev, w, true
	}
	return sweepTrail(flat)
}

// sweepGuard reports whether t may hold a severity: a multibyte rune, or
// one of the first letters of the vocabulary's ASCII words (and P of a
// P-level).
func sweepGuard(t string) bool {
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= 0x80:
			return true
		case c|0x20 == 'p' || c|0x20 == 'c' || c|0x20 == 'b' || c|0x20 == 'h' || c|0x20 == 'm' || c|0x20 == 's' ||
			c|0x20 == 'i' || c|0x20 == 'e' || c|0x20 == 'r':
			return true
		}
	}
	return false
}

// sweepPlace strips the marker of a place that labels a finding from t and
// returns its text: a heading's #s, a list marker (and a checkbox), a
// number. A bold lead-in, a bracket, a mark or a field line is a place of
// its own; any other line is running text (place false).
func sweepPlace(t string) (string, bool) {
	if t[0] == '#' {
		return strings.TrimSpace(strings.TrimLeft(t, "#")), true
	}
	if t[0] == '>' {
		return "", false // a quote: someone else's words
	}
	if kind, _, text := genItem(t); kind != 0 {
		text = strings.TrimSpace(text)
		if m := checkboxRe.FindStringSubmatch(text); m != nil {
			text = text[len(m[0]):]
		}
		return strings.TrimSpace(text), true
	}
	if n := numberingLen(t); n > 0 && n < len(t) {
		return strings.TrimSpace(t[n:]), true
	}
	switch {
	case strings.HasPrefix(t, "**"), strings.HasPrefix(t, "__"), t[0] == '[', t[0] == '(':
		return t, true
	}
	if r, _ := utf8.DecodeRuneInString(t); r >= 0x80 && isEmojiRune(r) {
		return t, true
	}
	if sevFieldOf(t) != nil {
		return t, true
	}
	return "", false
}

// sweepTally reports whether rest, what follows a severity, makes it a
// count or a definition: "Critical: 0", "High (2)", "= must fix".
func sweepTally(rest string) bool {
	r := strings.TrimLeft(rest, " *_:：—–-=(")
	return rest != "" && rest[0] == '=' || isCountText(r) || r == "" && strings.ContainsAny(rest, "=")
}

// sweepStart reads a severity at the start of an item's text: "High: …",
// "CRITICAL — …", "P1 Token reuse", "High severity: …", alone, or after
// an ID ("SEC-3 High: …"). A word followed by running text ("High
// availability", "critical path", "major version") is none.
func sweepStart(s string) (Severity, string, bool) {
	s = strings.TrimLeft(s, "*_ ")
	if id, rest, ok := apartID(s); ok && id != "" {
		s = strings.TrimLeft(rest, "*_`:—–- ")
	}
	w, rest := sweepWord(s)
	if w == "" {
		return "", "", false
	}
	sev, c, ok := oneSeverity(w, false)
	if !ok || c != sevFinding || sev.Rank() > 1 {
		return "", "", false
	}
	// "High severity", "Critical priority", "P1 issue": the noun after it.
	if n, r := sweepWord(strings.TrimLeft(rest, " ")); n != "" && strings.HasPrefix(rest, " ") {
		switch strings.ToLower(n) {
		case "severity", "risk", "impact", "issue", "issues", "finding", "findings", "bug", "bugs":
			rest = r
		case "priority", "priorities", "importance", "value", "confidence", "level", "effort", "leverage", "roi":
			return "", "", false // how much a step is worth doing, not a finding's level
		}
	}
	if n := strings.TrimLeft(rest, "*_:：—–- "); sweepTally(rest) || n != "" && noneText(n) {
		return "", "", false // "P0: None", "P0 findings: 3"
	}
	r := strings.TrimLeft(rest, "*_`")
	switch {
	case r == "":
		return sev, w, true // alone
	case IsPLevel(w) && strings.HasPrefix(r, " "):
		return sev, w, true // "P1 Token reuse"
	}
	// Not ".": "**High.** The design space is …" answers a question in
	// prose, "major.minor" is a word.
	for _, sep := range [...]string{":", "：", " —", " –", " - ", "]", ")", " |", " ·"} {
		if strings.HasPrefix(r, sep) {
			return sev, w, true
		}
	}
	return "", "", false
}

// sweepWord splits the first word (letters, digits and hyphens, or one
// rune outside ASCII) off s.
func sweepWord(s string) (string, string) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x80 {
			if i == 0 {
				_, n := utf8.DecodeRuneInString(s)
				// A word of another language runs to the next space or
				// punctuation of ASCII.
				for i = n; i < len(s) && (s[i] >= 0x80 || isWordByte(s[i])); i++ {
				}
				return s[:i], s[i:]
			}
			break
		}
		if !isWordByte(c) && c != '-' {
			break
		}
		i++
	}
	return s[:i], s[i:]
}

// sweepBracket reads a severity in brackets or parentheses anywhere in an
// item: "[P1]", "(HIGH impact)", "[Critical Severity]". A bracket of
// options ("[Critical|High]") is a template's, of a count ("(2
// critical)") a tally's.
func sweepBracket(s string) (Severity, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '[' && s[i] != '(' {
			continue
		}
		closer := byte(']')
		if s[i] == '(' {
			closer = ')'
		}
		e := strings.IndexByte(s[i+1:], closer)
		if e < 0 {
			return "", "", false
		}
		inner := strings.TrimSpace(s[i+1 : i+1+e])
		i += e
		if inner == "" || len(inner) > 40 || strings.ContainsAny(inner, "|{}<>=") || optionList(inner) ||
			strings.Count(inner, " ") > 2 || isCountText(inner) {
			continue
		}
		if !sweepTitleEnd(s, inner, i+2) {
			continue // "Track A: CCF-01 (P0), SRE-01 (P0)": a reference
		}
		v := inner
		if f := strings.Fields(v); len(f) == 2 && strings.EqualFold(f[1], "impact") {
			v = f[0] // "(HIGH impact)"
		}
		sev, c, ok := severityValue(v, true)
		if ok && c == sevFinding && sev.Rank() <= 1 {
			return sev, inner, true
		}
	}
	return "", "", false
}

// sweepTrail reads a severity that ends an item after a dash: "Webhook
// idempotency — HIGH".
func sweepTrail(s string) (Severity, string, bool) {
	for _, sep := range [...]string{" — ", " – ", " - "} {
		j := strings.LastIndex(s, sep)
		if j < 0 {
			continue
		}
		w := strings.TrimSpace(strings.Trim(s[j+len(sep):], "*_`. "))
		if w == "" || strings.Contains(w, " ") {
			continue
		}
		sev, c, ok := oneSeverity(w, false)
		if ok && c == sevFinding && sev.Rank() <= 1 {
			return sev, w, true
		}
	}
	return "", "", false
}

// sweepTitleEnd reports whether a bracket whose inner text is word and
// which ends at e in s labels it: it opens the text, or ends the title
// (nothing after it but a separator, a link or a description after one),
// and is written as a label (a P-level, a mark or a capitalised word:
// "(important)" in running text is an aside).
func sweepTitleEnd(s, word string, e int) bool {
	if e > len(s) {
		return false
	}
	if tail := strings.TrimSpace(strings.TrimLeft(s[e:], "*_`")); tail != "" && !strings.ContainsAny(tail[:1], ":-.[(|") &&
		!strings.HasPrefix(tail, "—") && !strings.HasPrefix(tail, "–") && len(word)+2 != e {
		return false
	}
	w := strings.TrimSpace(trimEmoji(word))
	if w == "" || IsPLevel(strings.Fields(w)[0]) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsLower(r) {
		return true
	}
	// In lower case, only before a dash that opens the description:
	// "1. Missing CSRF token (high) — the form posts …"; "(important)"
	// ending a bullet is an aside.
	tail := strings.TrimSpace(strings.TrimLeft(s[e:], "*_`"))
	return strings.HasPrefix(tail, "— ") || strings.HasPrefix(tail, "– ")
}

// sweepLabelName reports whether a field name is a label's own: a
// severity noun, "Finding", "Issue".
func sweepLabelName(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "finding", "issue", "bug", "problem", "vulnerability":
		return true
	}
	return false
}

// sweepCapitalSeverity reports whether a field name is a severity written
// as a label, one capitalised word ("CRITICAL: Token reuse"):
// "**blocking**: contradicts another agent" defines a term, "**Critical
// finding**: cognitive load …" is a note's lead-in.
func sweepCapitalSeverity(name string) bool {
	name = strings.TrimSpace(name)
	r, _ := utf8.DecodeRuneInString(name)
	_, c, ok := oneSeverity(name, false)
	return ok && c == sevFinding && !unicode.IsLower(r) && !strings.Contains(name, " ")
}
