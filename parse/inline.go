package parse

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// inlineFieldNames are the severity fields an author writes inside a
// finding's own line, after its title: "**Title** — Severity: **High**.
// …", "… the original charge. Risk: HIGH.", "[Severity: Critical] Title",
// "**Title** — WCAG 1.3.1 — Impact: Critical" (an accessibility audit's).
var inlineFieldNames = []string{"severity", "risk", "severity level", "risk level", "risk rating", "impact", "impact level"}

// inlineField reads a severity field written inside an item's or a
// heading's text (flat, less bold), not at its start: a field name after
// a boundary (a dash, the end of a sentence, a bracket, a pipe), a colon,
// and a value that is a severity and nothing else up to the end of its
// clause. It returns the severity, the word, and the text before and
// after the field (the title is cut from them). A colon is the cheap
// test: most lines hold none.
func inlineField(flat string) (sev Severity, word, before, after string, ok bool) {
	for from := 0; from < len(flat); {
		c := strings.IndexByte(flat[from:], ':')
		if c < 0 {
			return "", "", "", "", false
		}
		c += from
		from = c + 1
		start, named := inlineName(flat, c)
		if !named || !inlineBoundary(flat, start) {
			continue
		}
		v := strings.TrimLeft(flat[c+1:], " \t*_`")
		end := strings.IndexAny(v, ".,;)]|\n`")
		if end < 0 {
			end = len(v)
		}
		val := strings.TrimSpace(strings.Trim(strings.TrimSpace(v[:end]), "*_`"))
		if val == "" || len(val) > 24 {
			continue
		}
		s, cl, found := severityValue(val, true)
		if !found || cl != sevFinding {
			continue
		}
		rest := v[end:]
		if rest != "" && (rest[0] == ')' || rest[0] == ']') {
			rest = rest[1:]
		}
		b := flat[:start]
		if k := len(b); k > 0 && (b[k-1] == '(' || b[k-1] == '[' || b[k-1] == '`') {
			b = b[:k-1]
		}
		return s, val, strings.TrimSpace(b), strings.TrimSpace(rest), true
	}
	return "", "", "", "", false
}

// inlineName reports whether the text before the colon at c ends with a
// field name of inlineFieldNames, and where the name starts.
func inlineName(s string, c int) (int, bool) {
	head := strings.TrimRight(s[:c], " *_")
	for _, n := range inlineFieldNames {
		if len(head) < len(n) {
			continue
		}
		i := len(head) - len(n)
		if !strings.EqualFold(head[i:], n) {
			continue
		}
		if i > 0 && isWordByte(head[i-1]) {
			continue
		}
		// The bold that opens the name: "— **Severity:** High".
		for i > 0 && (head[i-1] == '*' || head[i-1] == '_') {
			i--
		}
		return i, true
	}
	return 0, false
}

// inlineBoundary reports whether the field name at i stands where a
// field starts inside a line: after a dash, the end of a sentence, a
// bracket or a pipe, not at the line's start (a field line of its own)
// and not inside a sentence ("the risk: high latency").
func inlineBoundary(s string, i int) bool {
	b := strings.TrimRight(s[:i], " \t")
	if b == "" {
		return false
	}
	switch b[len(b)-1] {
	case '(', '[', '|', '.', ';', '!', '?', '`':
		return true
	}
	return strings.HasSuffix(b, " —") || strings.HasSuffix(b, " –") || strings.HasSuffix(b, " -") ||
		strings.HasSuffix(b, "—") || strings.HasSuffix(b, "–") || strings.HasSuffix(b, " ·")
}

// inlineLead reads a line led by bold text whose severity is a field
// written later in the line: "1. **Session fixation** — Severity:
// **High**. …" (the bold part is the title), "**L42** — Refund not
// checked. Risk: HIGH." (the bold part names a line; the sentence
// before the field is the title).
func inlineLead(lead, after string, kind byte) label {
	sev, word, before, _, ok := inlineField(stripBold(after))
	if !ok {
		return label{}
	}
	lab := label{ok: true, sev: sev, class: sevFinding, word: word, inner: true}
	lab.title, lab.id = plainTitle("**"+lead+"**", kind)
	if b := strings.TrimSpace(strings.Trim(before, sepChars)); b != "" && (isLocation(lead) || lineMark(lead)) {
		lab.title = cleanTitle(firstSentence(b))
		if lineMark(lead) {
			lab.id = ""
		}
	}
	return lab
}

// lineMark reports whether s only names a line of the file under
// review: "L42", "L10-L12", "Line 7", "Lines 3-9".
func lineMark(s string) bool {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "`:"))
	if w, rest, ok := strings.Cut(s, " "); ok && (strings.EqualFold(w, "line") || strings.EqualFold(w, "lines")) {
		s = rest
	} else if len(s) > 1 && (s[0] == 'L' || s[0] == 'l') {
		s = s[1:]
	} else {
		return false
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "L", ""), "–", "-")
	a, b, _ := strings.Cut(s, "-")
	return isDigits(a) && (b == "" || isDigits(b))
}

// markTrailScale reads the items of a list rated at their ends: an item
// that ends with a lowercase severity in brackets ("S3 bucket readable
// by anyone (critical)", "No failover plan (major)") is a finding when
// another item beside it (under the same parent) ends so too. One such
// item alone is a remark ("spawn it for the container (blocking)"), and
// a name of two words a measure's level ("CPU usage (high)").
func markTrailScale(nodes []gnode) {
	var count map[int]int
	for k := range nodes {
		if n := &nodes[k]; !n.lab.ok && n.lab.trail != nil {
			if count == nil {
				count = map[int]int{}
			}
			count[n.parent]++
		}
	}
	for k := range nodes {
		n := &nodes[k]
		if !n.lab.ok && n.lab.trail != nil && count[n.parent] >= 2 && len(strings.Fields(n.lab.trail.title)) >= 3 && !emptyTitle(n.lab.trail.title) {
			n.lab = *n.lab.trail
		}
	}
}

// fieldForm rewrites a severity field written in a form sevFieldSplit
// does not know to the "Name: value" it stands for: in italics ("*Severity:
// high*", as review bots end a comment) or apart by a dash ("Severity —
// High"). Other lines come back as they are; the cheap tests first.
func fieldForm(t string) string {
	if len(t) > 2 && t[0] == ':' && (t[1] == ' ' || t[1] == '\t') {
		t = strings.TrimLeft(t[1:], " \t") // ": **Severity:** High", a definition list's line
	}
	t = emojiField(t)
	if len(t) > 2 && (t[0] == '*' || t[0] == '_') && t[1] != t[0] && t[1] != ' ' && t[len(t)-1] == t[0] && t[len(t)-2] != t[0] {
		t = t[1 : len(t)-1] // "*Severity: high*"
	}
	if strings.IndexByte(t, 0xe2) < 0 || strings.IndexByte(t, ':') >= 0 {
		return t
	}
	for _, sep := range []string{" — ", " – "} {
		name, value, ok := strings.Cut(t, sep)
		if !ok {
			continue
		}
		if sevNameOf(strings.Trim(strings.TrimSpace(name), "*_")) != nil {
			return name + ": " + value
		}
	}
	return t
}

// emojiField drops the emoji before a field's name ("🔥 Severity:
// Critical", "❌ Issue: …", as AI reviewers mark each field), else returns
// t as it is.
func emojiField(t string) string {
	if t == "" || t[0] < 0xe2 {
		return t // the cheap test: no emoji opens the line
	}
	r := trimEmoji(t)
	if c, _ := utf8.DecodeRuneInString(r); r == t || !unicode.IsLetter(c) {
		return t
	}
	if i := strings.IndexAny(r, ":："); i > 0 && i <= 24 {
		return r
	}
	return t
}

// titleFieldNames are the names of the fields that name a finding.
var titleFieldNames = []string{"issue", "finding", "problem", "title", "bug", "vulnerability", "defect"}

// titleField reads a field line that names a finding rather than
// describing one ("- **Issue:** Index writes are not batched",
// "Finding: …"): its value is a title.
func titleField(t string) (string, bool) {
	// The cheap test first: a colon, and a name that may be one.
	if strings.IndexByte(t, ':') < 0 {
		return "", false
	}
	c := emojiField(strings.TrimLeft(t, "-*+_ \t"))
	named := false
	for _, w := range titleFieldNames {
		if hasPrefixLower(c, w) {
			named = true
			break
		}
	}
	if !named {
		return "", false
	}
	t = emojiField(t)
	m := anyFieldRe.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	name := m[1]
	if name == "" {
		name = m[2]
	}
	if !slices.Contains(titleFieldNames, strings.ToLower(strings.TrimSpace(strings.TrimRight(name, ":")))) {
		return "", false
	}
	v := strings.TrimSpace(strings.Trim(strings.TrimSpace(t[len(m[0]):]), "*_"))
	if v == "" || emptyTitle(cleanTitle(v)) {
		return "", false
	}
	return v, true
}

// ratedBelow reports whether a severity field stands in the lines that
// follow lines[i] and belong to it: up to a heading, the next title field,
// or a blank line that no field follows (fields written a blank line
// apart are one run, as fieldRun reads them), a few lines at most (so
// that a long run of them is read in linear time).
func ratedBelow(lines []line, i int) bool {
	for j := i + 1; j < len(lines) && j <= i+12; j++ {
		l := lines[j]
		t := strings.TrimSpace(l.text)
		if t == "" && !l.masked && l.level == 0 && fieldAfterBlank(lines, j) {
			continue
		}
		if l.masked || l.level > 0 || t == "" {
			return false
		}
		if sevFieldOf(t) != nil {
			return true
		}
		if _, ok := titleField(t); ok {
			return false
		}
	}
	return false
}

// headsBlock reports whether node c (the innermost open node) is a
// heading below the report's title with nothing read under it before
// line i, the title field, and so the fields that follow it are its own:
// not a heading that names a section or a group ("## Findings", "### High
// Priority Issues"), nor one with another title field in its block (each
// names a finding of its own, looked for in the next 200 lines). It is
// asked of a title field with a severity field below it (ratedBelow),
// once a heading: the node that field opens makes c something else.
func headsBlock(lines []line, nodes []gnode, c, i int) bool {
	if c < 0 || c != len(nodes)-1 {
		return false
	}
	n := &nodes[c]
	if n.kind != 'h' || n.rank < 2 || n.fieldLine != 0 || n.i >= i {
		return false
	}
	if onlyGroupWords(plainHead(n.text)) {
		return false
	}
	if _, ok := GroupHeading(n.text); ok {
		return false
	}
	for j := i + 1; j < len(lines) && j <= i+200 && lines[j].level == 0; j++ {
		if _, ok := titleField(strings.TrimSpace(lines[j].text)); ok && !lines[j].masked {
			return false
		}
	}
	return true
}

// longTitle cuts a title that runs on into its description ("Archive
// read into memory. The importer reads …", a paragraph in one item) at
// the end of its first sentence, when that sentence has three words or
// more ("e.g." does not end one). A short title stays whole.
func longTitle(s string) string {
	if len(s) <= 300 {
		return s
	}
	for from := 0; ; {
		i := strings.Index(s[from:], ". ")
		if i < 0 {
			return s
		}
		i += from
		from = i + 2
		if len(strings.Fields(s[:i])) < 3 {
			continue
		}
		w := s[:i]
		if j := strings.LastIndexAny(w, " ("); j >= 0 {
			w = w[j+1:]
		}
		switch strings.ToLower(w) {
		case "e.g", "i.e", "vs", "etc", "approx", "cf", "fig", "no":
			continue
		}
		return s[:i]
	}
}
