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
	if len(t) >= 300 || !hasDigit(t) {
		return c, false
	}
	pairs := 0
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
	return c, pairs >= 2
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

// wordTallies records the counts a line states in words (wordTallies),
// one tally a level.
func (g *general) wordTallies(c sevCounts, line int) {
	for k, s := range [...]Severity{P0, P1, P2, P3} {
		if c.seen[k] {
			g.tallies = append(g.tallies, tally{line: line, sev: s, n: c.n[k], group: -1})
		}
	}
}
