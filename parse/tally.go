package parse

import (
	"strconv"
	"strings"
)

// Tallies in words (SPEC §2.3 "groups vs tallies"): a line that breaks a
// count down by severity, as scanners and audit summaries write it —
// "Total issues (by severity): Low: 1, Medium: 0, High: 1",
// "2 vulnerabilities (1 high, 1 critical)", "Total: 3 (CRITICAL: 1,
// HIGH: 1)". What it states of P0 and P1 is checked against what was read
// (agent.go, unreadable): a report that counts a high finding it never
// wrote down in a place of a finding is never silently safe.

// sevCounts are the counts a line states of each level, P0 to P3, and
// whether it states one of the level at all.
type sevCounts struct {
	n    [4]int
	seen [4]bool
}

// wordTallies returns the severity counts a line states in words: two or
// more pairs of a count and a severity word of the vocabulary's markers,
// written "High: 1" (a colon between) or "1 high" (a space between),
// summed by level ("critical: 1, blocker: 1" states two P0). One pair
// alone is prose ("1 critical path"); a P-level is plevelTallies'. It
// is a hand scan with no regexp and no allocation: it runs on every line
// of a report.
func wordTallies(t string) (c sevCounts, ok bool) {
	c, pairs := sevPairs(t)
	return c, pairs >= 2
}

// sevPairs returns the counts of the pairs of a count and a severity word
// a line holds (wordTallies) and how many pairs it holds.
func sevPairs(t string) (c sevCounts, pairs int) {
	if len(t) >= 300 || !hasDigit(t) {
		return c, 0
	}
	add := func(s Severity, num string) {
		n, err := strconv.Atoi(num)
		if k := s.Rank(); err == nil && k < 4 {
			c.n[k] += n
			c.seen[k] = true
			pairs++
		}
	}
	// The previous word and where it ends.
	prev, prevEnd := "", -1
	for i := 0; i < len(t); {
		if !isWordByte(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isWordByte(t[j]) {
			j++
		}
		w, sep := t[i:j], ""
		if prevEnd >= 0 {
			sep = t[prevEnd:i]
		}
		switch {
		case isDigits(w) && prev != "" && !isDigits(prev) && colonSep(sep):
			// "High: 1", "**High**: 1"
			if s, ok := tallyWord(prev); ok {
				add(s, w)
			}
		case !isDigits(w) && isDigits(prev) && strings.Trim(sep, " ") == "":
			// "1 high"
			if s, ok := tallyWord(w); ok {
				add(s, prev)
			}
		}
		prev, prevEnd, i = w, j, j
	}
	return c, pairs
}

// tallyWord reads a marker word of the vocabulary as a severity: the words
// that label a finding anywhere, not those of a severity position only
// ("error", "warning" count log lines).
func tallyWord(w string) (Severity, bool) {
	if len(w) > 16 || IsPLevel(w) {
		return "", false
	}
	s, c, ok := vocabWord(w, false)
	return s, ok && c == sevFinding
}

// colonSep reports whether the text between a severity word and a count
// is a colon, with spaces and bold around it ("High: 1", "**High:** 1").
func colonSep(s string) bool {
	return strings.Count(s, ":") == 1 && strings.Trim(s, " :*_") == ""
}

// countAfterColon reports whether a title is a category and its count,
// "General issues: 1 issue found", "Critical: 0 issues": a tally of the
// category, not a finding. "src/auth.go:42" is a line of a file.
func countAfterColon(s string) bool {
	i := strings.LastIndexByte(s, ':')
	return i >= 0 && i+1 < len(s) && s[i+1] == ' ' && isCount(strings.TrimRight(s[i+1:], ". "))
}

// lineTallies records the counts a line of text states (SPEC §2.3
// "groups vs tallies"; summary says it stands in a summary section,
// preamble before the report's first section):
//   - "P0: 3, P1: 2" (plevelTallies) in a summary, or with a word that
//     says it counts findings: a scoring table's "P0: 60" is not a
//     tally, nor is "2 of 3 P0 flaws" in a sentence;
//   - a breakdown in words, "Critical: 2 | High: 1" (wordTallies), there
//     or in the preamble, where a report sums itself up;
//   - a count of one level with a noun of findings, "3 critical issues
//     found" (nounTallies), anywhere.
//
// Counts of findings resolved or of an earlier review (resolvedTally)
// are none of these.
func (g *general) lineTallies(t string, line int, summary, preamble bool) {
	if len(t) >= 300 || !hasDigit(t) {
		return // each states a count in digits
	}
	counting := -1 // whether countWordRe matches, when asked
	counts := func() bool {
		if counting < 0 {
			counting = 0
			if countWordRe.MatchString(t) {
				counting = 1
			}
		}
		return counting == 1
	}
	if mayCountPLevel(t) && (summary || counts()) && !resolvedTally(t, false) {
		g.plevelTallies(t, line)
	}
	ts, pairs := sevPairs(t)
	if pairs >= 2 {
		if (summary || preamble || counts()) && !resolvedTally(t, false) {
			g.wordTallies(ts, line)
		}
		return
	}
	// A count with a noun holds one pair ("3 critical"): most lines none.
	if pairs == 0 {
		return
	}
	if ts, ok := nounTallies(t); ok && !resolvedTally(t, true) && !exampleLine(t) && (ts.seen[0] || ts.seen[1]) {
		g.tallies = append(g.tallies, tally{line: line, sev: P1, n: ts.n[0] + ts.n[1], group: -1, loose: true})
	}
}

// wordTallies records the counts a line states in words (wordTallies),
// one tally a level.
func (g *general) wordTallies(c sevCounts, line int) {
	for k, s := range [...]Severity{P0, P1, P2, P3} {
		if c.seen[k] {
			g.tallies = append(g.tallies, tally{line: line, sev: s, n: c.n[k], group: -1})
		}
	}
}

// nounTallies returns the counts a line states of one level with a noun
// of findings after it — "3 critical issues found", "Found 2
// high-severity vulnerabilities" — or alone in parentheses, as a verdict
// explains itself ("FAIL (2 critical)"). Unlike wordTallies' breakdowns
// one such count is a tally: the noun says what is counted. Counts in
// quotes or code (a prompt's example) are not the report's. It is a
// hand scan with no allocation: it runs on every line of a report.
func nounTallies(t string) (c sevCounts, ok bool) {
	if len(t) >= 300 {
		return c, false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			continue
		}
		j := i + 1
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j-i > 6 || i > 0 && isWordByte(t[i-1]) || j < len(t) && isWordByte(t[j]) {
			i = j - 1 // "v12", "2x", a long number
			continue
		}
		sev, end, found := nounTally(t, j)
		if !found || quoted(t, i) || boundWord(t[:i]) {
			i = j - 1
			continue
		}
		if k := sev.Rank(); k < 4 {
			n, _ := strconv.Atoi(t[i:j])
			c.n[k] += n
			c.seen[k] = true
			ok = true
		}
		i = end - 1
	}
	return c, ok
}

// boundWord reports whether the text before a count makes it a bound or
// an example, not a count of findings: "at least 2 critical issues",
// "no more than 1 high issue", "up to 3", "e.g. 2 critical issues".
func boundWord(before string) bool {
	before = strings.TrimRight(before, " ")
	i := strings.LastIndexAny(before, " (\t")
	w := strings.ToLower(strings.TrimRight(before[i+1:], ".,:"))
	switch w {
	case "least", "most", "than", "to", "max", "maximum", "min", "minimum", "under", "over", "e.g", "eg", "example",
		"top", "first",
		"≤", "<", ">", "≥", "<=", ">=", "if", "when", "allow", "allows", "allowed", "threshold", "limit":
		return true
	}
	return false
}

// quoted reports whether t[i] stands in a quotation or code span: after
// an odd number of '"' or '`', or after a '“' not yet closed.
func quoted(t string, i int) bool {
	before := t[:i]
	if strings.Count(before, `"`)%2 == 1 || strings.Count(before, "`")%2 == 1 {
		return true
	}
	return strings.LastIndex(before, "“") > strings.LastIndex(before, "”")
}

// nounTally reads what follows a count at t[j:]: a severity word of the
// vocabulary, an optional "-severity" or " priority", and a noun of
// findings, or a closing parenthesis after "(N". It returns the level
// and where the tally ends.
func nounTally(t string, j int) (Severity, int, bool) {
	k := j
	for k < len(t) && t[k] == ' ' {
		k++
	}
	if k == j {
		return "", 0, false
	}
	e := k
	for e < len(t) && isWordByte(t[e]) {
		e++
	}
	sev, ok := tallyWord(t[k:e])
	if !ok || e == k {
		return "", 0, false
	}
	// "(2 critical)": the count alone in its parentheses.
	if e < len(t) && t[e] == ')' && parenCount(t, j) {
		return sev, e + 1, true
	}
	rest := t[e:]
	for _, q := range []string{"-severity", " severity", "-priority", " priority", "-risk", " risk", "-impact", " impact"} {
		if len(rest) >= len(q) && strings.EqualFold(rest[:len(q)], q) {
			rest = rest[len(q):]
			break
		}
	}
	if !strings.HasPrefix(rest, " ") {
		return "", 0, false
	}
	rest = strings.TrimLeft(rest, " ")
	w := 0
	for w < len(rest) && isWordByte(rest[w]) {
		w++
	}
	if !findingNouns[strings.ToLower(rest[:w])] {
		return "", 0, false
	}
	return sev, len(t) - len(rest) + w, true
}

// parenCount reports whether the count that ends at t[j] opens its
// parentheses: "(2".
func parenCount(t string, j int) bool {
	i := j
	for i > 0 && isWordByte(t[i-1]) {
		i--
	}
	return i > 0 && t[i-1] == '('
}

// findingNouns are the nouns a count of findings names. "errors" is not
// one: "12 critical errors" are a log's or a dashboard's.
var findingNouns = map[string]bool{"issue": true, "issues": true, "finding": true, "findings": true,
	"problem": true, "problems": true, "bug": true, "bugs": true, "vulnerability": true, "vulnerabilities": true,
	"defect": true, "defects": true, "blocker": true, "blockers": true, "concern": true, "concerns": true,
	"flaw": true, "flaws": true, "gap": true, "gaps": true, "risks": true}

// resolvedTally reports whether a tally line counts findings that are no
// longer open, or another review's, and so is not checked against the
// findings read: its label names them so ("Resolved: 3 critical, 1
// high", "Fixed since the last review: P0: 2"); or, for a count with a
// noun (nounTallies, noun set), its words name them resolved, fixed,
// closed or addressed, or to be ("close 5 high-priority bugs this
// sprint"), or of an earlier review ("All 3 critical issues from the
// first review are fixed"), and none says some are still open or to be
// dealt with ("remaining", "open", "outstanding", "should", "before"),
// or found ("found", "identified"; an earlier review's still is not this
// one's). A breakdown that counts open and
// resolved ones side by side ("2 P1, 7 P2, and 5 resolved findings")
// counts open ones.
func resolvedTally(t string, noun bool) bool {
	for rest := t; ; {
		label, after, ok := strings.Cut(rest, ":")
		if !ok {
			break
		}
		// The label of a sentence: from its start to the colon.
		if i := strings.LastIndexAny(label, ".;|"); i >= 0 {
			label = label[i+1:]
		}
		if len(label) <= 40 {
			for _, w := range lowerWordsOf(label) {
				if closedWord(w) {
					return true
				}
			}
		}
		rest = after
	}
	if !noun {
		return false
	}
	closed, earlier, open, found := false, false, false, false
	for _, w := range lowerWordsOf(t) {
		switch w {
		case "remaining", "remain", "remains", "open", "outstanding", "unresolved", "still", "new",
			// "2 high-priority issues that should be addressed": not yet.
			"should", "must", "need", "needs", "require", "requires", "before":
			open = true
		case "found", "identified", "detected":
			found = true
		case "previous", "prior", "earlier", "original":
			earlier = true
		default:
			closed = closed || closedWord(w)
		}
	}
	return !open && (earlier || closed && !found)
}

// closedWord reports whether w says findings are resolved, or are to be
// ("close 5 high-priority bugs this sprint": a plan, not a count of
// what the report found).
func closedWord(w string) bool {
	switch w {
	case "resolved", "fixed", "fixes", "closed", "addressed", "remediated", "mitigated", "fix", "close", "resolve",
		"address", "remediate":
		return true
	}
	return false
}

// exampleLine reports whether a line gives an example or a template of
// what a report writes ("Example: Found 2 high-severity issues", "e.g.
// …", "Sample output: …"): its counts are no report's.
func exampleLine(t string) bool {
	head := t
	if len(head) > 48 {
		head = head[:48]
	}
	for _, w := range lowerWordsOf(head) {
		switch w {
		case "example", "examples", "sample", "template", "eg", "instance":
			return true
		}
	}
	return strings.Contains(head, "e.g.")
}

// tallyHeading reports whether a heading is a tally, "Findings (2
// critical, 1 high)", "3 Critical Issues Found", "Summary: P0: 1, P1:
// 2": all its words are counts, severity words, nouns of findings and
// words of a summary. A heading with other words is a title ("2. The
// Spec Has 2 P0 Defects and 12 P1 Gaps", another document's counts).
func tallyHeading(head string) bool {
	if len(head) > 120 || !hasDigit(head) {
		return false
	}
	if _, ok := wordTallies(head); !ok && !mayCountPLevel(head) {
		if _, ok := nounTallies(head); !ok {
			return false // states no count: most headings with a digit
		}
	}
	for _, w := range lowerWordsOf(head) {
		if isDigits(w) || IsPLevel(strings.ToUpper(w)) || findingNouns[w] {
			continue
		}
		if _, ok := tallyWord(w); ok {
			continue
		}
		switch w {
		case "found", "identified", "total", "totals", "summary", "overview", "by", "severity", "priority", "and",
			"with", "of", "open", "new", "count", "counts", "tally":
			continue
		}
		return false
	}
	return true
}
