package parse

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// proseParsed is what the start of a list item, bold lead-in or heading says.
type proseParsed struct {
	class   sevClass // sevNone when no marker was found
	sev     Severity
	id      string
	title   string
	section string // for index list items: the part after " — "
	after   string // text after the bold part or the title
	// how the marker was found: "lead" (at the start, or after an ID) or
	// "trailing" (a parenthesised marker closing the bold part or heading).
	how string
}

func (p proseParsed) noSev() bool { return p.class == sevNone }

var (
	// "Finding 3", "Issue 2", "Gap 1.2", "Alert #14" (a code scanner's
	// alert): a word and a number used as an ID.
	wordIDRe = regexp.MustCompile(`^(?i)((?:finding|issue|gap|concern|problem|risk|item|observation|recommendation|alert|bug|defect|vulnerability|result)\s+#?\d+(?:\.\d+)*)`)
	// A leading "2." or "2)" numbering inside a heading.
	numberingRe = regexp.MustCompile(`^\d+(?:\.\d+)*[.)]?\s+`)
	// Separators between a marker, an ID and a title.
	sepChars = " \t:—–-.*_|·"
)

// The guards below skip a regexp on text it cannot match: each tests a
// character every match has, and regexp_guard_test.go fuzzes each against
// its regexp alone. Prose reports run these on every line; on a 16 MiB
// report of finding headings the regexps were a third of the parse.

// stripNumbering removes a leading "2." or "2)" numbering: numberingRe
// needs a digit first.
func stripNumbering(s string) string {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return s
	}
	return numberingRe.ReplaceAllString(s, "")
}

// wordIDAt is wordIDRe.FindStringSubmatchIndex(s): a match starts with the
// first letter of one of its words, in either case (no other letter folds
// to those), then that word's second letter, in either case or non-ASCII
// ('ſ' folds to 's'); and the first space of s (a word holds none) is
// followed by spaces, an optional '#' and a digit.
func wordIDAt(s string) []int {
	if len(s) < 2 || s[0] < utf8.RuneSelf && strings.IndexByte("fFiIgGcCpPrRoOaAbBdDvV", s[0]) < 0 ||
		s[1] < utf8.RuneSelf && strings.IndexByte("iIsSaAoOrRtTbBeElLuU", s[1]) < 0 {
		return nil
	}
	i := spaceSet.indexAny(s)
	if i < 0 {
		return nil
	}
	for i < len(s) && spaceSet[s[i]] {
		i++
	}
	if i < len(s) && s[i] == '#' {
		i++
	}
	if i == len(s) || s[i] < '0' || s[i] > '9' {
		return nil
	}
	return wordIDRe.FindStringSubmatchIndex(s)
}

// leadID reads an ID at the start of s: a finding ID ("C1", "AR-001",
// "[Q1]") or a word ID ("Finding 3"). It returns the ID and the rest of s.
func leadID(s string) (id, rest string, ok bool) {
	if m := wordIDAt(s); m != nil {
		return s[m[2]:m[3]], s[m[3]:], true
	}
	tok := s
	if i := blankSet.indexAny(s); i >= 0 {
		tok = s[:i]
	}
	bare := idTrimRight.trimRight(idTrim.trim(tok))
	bare = idTrim.trim(bare)
	if tok != "" && tok[0] == '(' {
		// "(HAL-01) UNPROTECTED INITIALIZER": an audit's ID in
		// parentheses before the title.
		if !strings.HasSuffix(strings.TrimRight(tok, ":."), ")") {
			return "", s, false
		}
		bare = strings.TrimPrefix(bare, "(")
	}
	if bare != "" && IsFindingID(bare) {
		if _, ok := severityPrefix(bare); ok || bare[0] != 'P' || !isDigits(bare[1:]) {
			return bare, s[len(tok):], true
		}
	}
	return "", s, false
}

// proseItem reads the start of a list item's text or a bold lead-in:
// `[P1] Title`, `**[P1] Title**`, `P1: Title`, `**[CRITICAL] F1: Title** — …`,
// `**C1. P0: Title**`, `**GAP-1: Title (CRITICAL)**`, `FIND-01 (High): Title`.
// With index set, an item with no marker is still returned (noSev) so that an
// index group can give it a severity.
func proseItem(text string, index bool) (proseParsed, bool) {
	t := strings.TrimSpace(text)
	inner, after, bold := t, "", false
	if strings.HasPrefix(t, "**") {
		if j := strings.Index(t[2:], "**"); j >= 0 {
			inner, after, bold = t[2:2+j], strings.TrimSpace(t[4+j:]), true
			if strings.TrimSpace(inner) == "" {
				return proseParsed{}, false
			}
		}
	}
	p, body := readMarkers(inner, bold || index)
	if p.class == sevNone && p.id == "" {
		// "[Q1] Title": an ID with no marker, kept for an index group.
		if id, rest, ok := leadID(inner); ok && (strings.HasPrefix(strings.TrimSpace(inner), "[") || index && delimitedID(inner)) {
			p.id, body = id, strings.TrimLeft(rest, sepChars)
		}
	}
	if p.class == sevNone && !index {
		return proseParsed{}, false
	}
	if bold && !strings.Contains(body, "**") {
		// Title is the bold part; the rest of the line is description.
		if after == "" && body == "" {
			return proseParsed{}, false
		}
		if body == "" {
			body, after = splitDash(strings.TrimLeft(after, sepChars))
		}
		p.title = body
		p.after = strings.TrimLeft(after, " :—–-.")
	} else {
		body = stripBold(body)
		p.title, p.after = splitDash(body)
		if after != "" {
			p.after = strings.TrimSpace(p.after + " " + after)
		}
	}
	p.title = cleanTitle(p.title)
	if index && !bold && p.after != "" && len(p.after) <= 120 {
		// `- [P0] Title — Section`: the part after the dash is the section.
		p.section = strings.TrimSpace(p.after)
	}
	if emptyTitle(p.title) {
		return proseParsed{}, false
	}
	return p, true
}

func startsSep(s string) bool {
	return s == "" || strings.ContainsAny(s[:1], " \t:—–-.)")
}

// splitDash splits "Title — rest" at the first spaced dash.
func splitDash(s string) (string, string) {
	for _, sep := range []string{" — ", " – ", " -- "} {
		if i := strings.Index(s, sep); i > 0 {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+len(sep):])
		}
	}
	return strings.TrimSpace(s), ""
}

func cleanTitle(s string) string {
	s = strings.TrimSpace(stripBold(s))
	s = strings.TrimRight(s, " :")
	if strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "..") {
		s = strings.TrimSuffix(s, ".")
	}
	return strings.TrimSpace(s)
}

var countTitleRe = regexp.MustCompile(`^(?i)(\d+\b.{0,24}|\d+\s*[,/|;].*|(?:none|nothing)(?:\b[^\pL]*|\s*\(.*|[\s:,—–-]+(?:found|identified|observed|noted|reported|detected|flagged|raised|so far|yet|at (?:this|the) (?:time|moment)|in (?:this|the) \pL+|to (?:report|flag|note|add)|significant|critical|major|blocking|notable|of note|else|new|open|remaining|outstanding|that|which|here|applicable|currently|presently|at present|right now|known|pending|so|as of)\b.*)|n/?a|no (findings?|issues?).*|—|-|–|tbd|0|\(.*)$`)

// emptyTitle reports whether a title says nothing: empty, "none", a count, a
// legend, or only group words ("defects", "findings"). A title that ends with
// a file:line is not a count ("Token logged in src/auth.go:23").
func emptyTitle(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return true
	}
	// countTitleRe can only match from a digit, "n", "t", "(" or a dash, and
	// a tally needs a colon: skip the regexps on the other titles.
	switch c := s[0] | 0x20; {
	case c >= '0' && c <= '9', c == 'n', c == 't', s[0] == '(', s[0] == '-', s[0] == 0xe2:
		if countTitleRe.MatchString(s) {
			return true
		}
	}
	return strings.IndexByte(s, ':') >= 0 && (isTally(s) || countAfterColon(s)) && !endsWithRef(s) || onlyGroupWords(s)
}

// isTally reports whether s is a legend or tally: "(invalid measurement …):
// 3", "…, P1: 48, P2: 36". It reads `(?i):\s*\d+\s*$|\bP[0-4]\s*:\s*\d+` by
// hand: that expression, run on every prose title with a colon, was a
// tenth of a prose parse (prose_test.go keeps it as the reference).
func isTally(s string) bool {
	// `:\s*\d+\s*$`: spaces, then digits, then spaces and a colon before them.
	i := len(s)
	for i > 0 && isRegexpSpace(s[i-1]) {
		i--
	}
	j := i
	for j > 0 && s[j-1] >= '0' && s[j-1] <= '9' {
		j--
	}
	if j < i {
		for j > 0 && isRegexpSpace(s[j-1]) {
			j--
		}
		if j > 0 && s[j-1] == ':' {
			return true
		}
	}
	// `\bP[0-4]\s*:\s*\d+`, P in either case.
	for i := 0; i+2 < len(s); i++ {
		if s[i]|0x20 != 'p' || s[i+1] < '0' || s[i+1] > '4' || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		j := i + 2
		for j < len(s) && isRegexpSpace(s[j]) {
			j++
		}
		if j == len(s) || s[j] != ':' {
			continue
		}
		j++
		for j < len(s) && isRegexpSpace(s[j]) {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			return true
		}
	}
	return false
}

// onlyGroupWords reports whether s names a list rather than a finding.
func onlyGroupWords(s string) bool {
	// The first word of s is that of stripParens(s) when s starts with one:
	// the test comes first, so most titles are never copied.
	return mayBeGroupWords(s) && groupWordsRe.MatchString(stripParens(s))
}

// groupWords are the words of groupWordsRe, singular: a title of only such
// words starts with one of them.
var groupWords = []string{"finding", "issue", "item", "concern", "problem", "risk", "gap", "defect", "bug", "blocker",
	"severity", "priority", "level", "and", "or", "found", "identified", "summary", "list", "only", "remaining",
	"open", "new", "other"}

// mayBeGroupWords is false for most titles groupWordsRe cannot match: those
// whose first word, in ASCII letters, starts with none of groupWords. It
// runs on every prose title, where the regexp alone was a tenth of the
// parse of a large prose report; anything else is left to the regexp
// (TestOnlyGroupWordsMatchesRegexp compares the two).
func mayBeGroupWords(s string) bool {
	n := 0
	for n < len(s) && ('a' <= s[n]|0x20 && s[n]|0x20 <= 'z') {
		n++
	}
	if n == 0 || n < len(s) && s[n] >= utf8.RuneSelf {
		return true // no ASCII word first, or one that runs on into other letters
	}
	for _, w := range groupWords {
		if len(w) <= n && strings.EqualFold(s[:len(w)], w) {
			return true
		}
	}
	return false
}

// stripParens drops parenthesised parts: "Findings (Blocking)" → "Findings".
func stripParens(s string) string {
	for {
		i := strings.IndexByte(s, '(')
		if i < 0 {
			return strings.TrimSpace(s)
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return strings.TrimSpace(s[:i])
		}
		s = s[:i] + " " + s[i+j+1:]
	}
}

var (
	groupWordsRe = regexp.MustCompile(`(?i)^(?:(?:findings?|issues?|items?|concerns?|problems?|risks?|gaps?|defects?|bugs?|blockers?|severity|priority|level|and|or|&|/|\(|\)|-|—|–|:|,|\d+|found|identified|summary|list|only|remaining|open|new|other)\s*)*$`)
	// "Findings that will cause …": a group heading that describes its group.
	groupLeadRe = regexp.MustCompile(`(?i)^(?:findings?|issues?|items?|problems?|defects?)\s+(?:that|which|where|requiring|needing|to be)\b`)
	triageRe    = regexp.MustCompile(`(?i)^(?:critical|high|medium|moderate|low|minor|major|important|blocking|blockers?|urgent|serious|severe|significant|notable|required|recommended|optional|consider|suggestions?|nits?|nitpicks?|cosmetic|polish|info|informational|must[- ]fix|should[- ]fix|could[- ]fix|nice[- ]to[- ]have|must[- ]have|should[- ]have|(?:high|medium|low|top)[- ]priority|(?:high|medium|low)[- ]severity|p[0-4])(?:\s+(?:findings?|issues?|items?|concerns?|problems?|risks?|gaps?))?$`)
)

// groupHeading reads a severity group heading (SPEC §2.3): a heading whose
// text is a marker followed only by group words ("P1 findings", "[P0]
// Issues"), or whose text before a parenthesised marker is itself a severity
// or triage word ("Critical (P0)", "Important (P1)", "Must fix (P0)").
// Inside an index (index set) a short heading opening with a severity word is
// also a group ("Critical Security Issues").
func groupHeading(text string, index bool) (Severity, bool) {
	t := strings.TrimSpace(stripNumbering(strings.TrimSpace(stripBold(text))))
	if m, ok := markerAt(t, false); ok && m.class == sevFinding {
		rest := strings.TrimSpace(t[m.end:])
		bare := strings.Trim(stripParens(rest), " :—–-")
		switch {
		case groupWordsRe.MatchString(bare), triageRe.MatchString(bare),
			groupLeadRe.MatchString(strings.TrimLeft(rest, " :—–-")):
			return m.sev, true
		}
	}
	if m, ok := trailingMarker(t); ok {
		before := strings.TrimSpace(strings.TrimRight(t[:m.start], " :—–-"))
		if triageRe.MatchString(before) || groupWordsRe.MatchString(before) {
			return m.sev, true
		}
	}
	if index {
		words := strings.Fields(strings.Trim(t, ":"))
		if len(words) > 0 && len(words) <= 6 && !strings.Contains(t, "|") {
			if sev, c := severityToken(words[0], false); c == sevFinding {
				return sev, true
			}
		}
	}
	return "", false
}

// readMarkers reads the markers of §2.3 in t: a marker at the start (then an
// optional ID), an ID then a marker ("C1. P1:", "Finding 3 — CRITICAL:",
// "FIND-01 (High):"), or, with trailing set, a parenthesised marker closing t.
// It returns what it found and the text left for the title.
func readMarkers(t string, trailing bool) (proseParsed, string) {
	var p proseParsed
	body := t
	if m, ok := markerAt(t, false); ok {
		p.class, p.sev, p.how = m.class, m.sev, "lead"
		body = strings.TrimLeft(t[m.end:], sepChars)
		if id, rest, ok := leadID(body); ok && startsSep(rest) {
			p.id, body = id, strings.TrimLeft(rest, sepChars)
		}
		return p, body
	}
	if id, rest, ok := leadID(t); ok {
		r := strings.TrimLeft(rest, " \t:—–-.")
		if m, ok := markerAt(r, true); ok && (startsSep(rest) || strings.HasPrefix(strings.TrimSpace(rest), "(")) {
			p.class, p.sev, p.id, p.how = m.class, m.sev, id, "lead"
			return p, strings.TrimLeft(r[m.end:], sepChars)
		}
	}
	if trailing {
		if m, ok := trailingMarker(t); ok {
			p.class, p.sev, p.how = m.class, m.sev, "trailing"
			body = strings.TrimSpace(t[:m.start])
			if id, rest, ok := leadID(body); ok && startsSep(rest) {
				p.id, body = id, strings.TrimLeft(rest, sepChars)
			}
		}
	}
	return p, body
}

// headingFinding reads a finding heading (SPEC §2.3 rule 1): text that starts
// with a marker or an ID then a marker, or ends with a parenthesised marker.
func headingFinding(text string) (proseParsed, bool) {
	t := strings.TrimSpace(stripNumbering(strings.TrimSpace(text)))
	p, body := readMarkers(t, true)
	if p.class == sevNone {
		return proseParsed{}, false
	}
	p.title = cleanTitle(body)
	if emptyTitle(p.title) {
		return proseParsed{}, false
	}
	return p, true
}

// severityLineRe matches a "**Severity:** P0" / "**Severity: High**" field.
var severityLineRe = regexp.MustCompile(`(?i)^(?:[-*+]\s+)?(?:\*\*|__)?severity(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*([A-Za-z0-9-]+)`)

// severityLineOf is severityLineRe.FindStringSubmatch(t): a match holds
// "everity" in ASCII letters of either case (none of them folds to a
// non-ASCII letter).
func severityLineOf(t string) []string {
	if !containsFold(t, "everity") {
		return nil
	}
	return severityLineRe.FindStringSubmatch(t)
}

// severityLine reads a severity field line.
func severityLine(t string) (Severity, bool) {
	m := severityLineOf(strings.TrimSpace(t))
	if m == nil {
		return "", false
	}
	sev, c := severityToken(m[1], false)
	return sev, c == sevFinding
}

// severityUnder looks for a severity field line right under the heading at
// lines[h]: among the first few non-blank lines of its body, before any
// other heading or ordinary paragraph.
func severityUnder(lines []line, h int) (Severity, int, bool) {
	seen := 0
	for i := h + 1; i < len(lines) && seen < 4; i++ {
		l := lines[i]
		t := strings.TrimSpace(l.text)
		if t == "" || l.masked {
			continue
		}
		if l.level > 0 {
			return "", 0, false
		}
		seen++
		if sev, ok := severityLine(t); ok {
			return sev, l.num, true
		}
		// Other "**Field:** value" lines may come first; prose may not.
		if !fieldLineRe.MatchString(t) {
			return "", 0, false
		}
	}
	return "", 0, false
}

var fieldLineRe = regexp.MustCompile(`^(?:[-*+]\s+)?(?:\*\*|__)[^*]{1,40}(?::\*\*|\*\*\s*:|:)`)

// detailSection reads a heading that is a finding written as a detail
// section: a finding heading, or "ID — Title" with a severity field under it.
func detailSection(lines []line, h int) (item, bool) {
	l := lines[h]
	if p, ok := headingFinding(l.head); ok {
		it := item{class: p.class, sev: p.sev, id: p.id, title: p.title, line: l.num}
		if sev, _, ok := severityUnder(lines, h); ok {
			it.sev = sev
		}
		return it, true
	}
	id, rest, ok := leadID(strings.TrimSpace(l.head))
	if !ok || !startsSep(rest) {
		return item{}, false
	}
	sev, _, ok := severityUnder(lines, h)
	if !ok {
		return item{}, false
	}
	return item{class: sevFinding, sev: sev, id: id, title: cleanTitle(strings.TrimLeft(rest, sepChars)), line: l.num}, true
}

// delimitedID reports whether the ID that starts s is set apart from the
// title: by brackets or bold ("[Q1] Title", "**Q1** Title"), by a separator
// ending it ("Q1: Title", "Q1. Title") or one after it ("Q1 — Title"). In
// "F1 adds no implementation" the F1 is the subject of a sentence, not an ID.
func delimitedID(s string) bool {
	s = strings.TrimSpace(s)
	tok, rest := s, ""
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		tok, rest = s[:i], strings.TrimSpace(s[i:])
	}
	if tok == "" {
		return false
	}
	if strings.ContainsAny(tok[:1], "[`*") || strings.ContainsAny(tok[len(tok)-1:], ":.)]`*") {
		return true
	}
	for _, sep := range []string{"—", "–", "-", ":", "|"} {
		if strings.HasPrefix(rest, sep) {
			return true
		}
	}
	return false
}
