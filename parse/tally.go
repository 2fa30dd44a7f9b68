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

// sevCount is one "severity: count" or "count severity" pair of a line.
type sevCount struct {
	sev Severity
	n   int
}

// wordTallies returns the severity counts a line states in words: two or
// more pairs of a count and a severity word of the vocabulary's markers,
// written "High: 1" (a colon between) or "1 high" (a space between). One
// pair alone is prose ("1 critical path"); a P-level is plevelTallies'.
// It is a hand scan, no regexp: it runs on every line of a report.
func wordTallies(t string) []sevCount {
	if len(t) >= 300 || !hasDigit(t) {
		return nil
	}
	var out []sevCount
	// The previous word, where it ends, and whether it is a count.
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
				out = appendCount(out, s, w)
			}
		case !isDigits(w) && isDigits(prev) && strings.Trim(sep, " ") == "":
			// "1 high"
			if s, ok := tallyWord(w); ok {
				out = appendCount(out, s, prev)
			}
		}
		prev, prevEnd, i = w, j, j
	}
	if len(out) < 2 {
		return nil
	}
	return out
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

func appendCount(out []sevCount, s Severity, num string) []sevCount {
	n, err := strconv.Atoi(num)
	if err != nil {
		return out
	}
	return append(out, sevCount{s, n})
}

// countAfterColon reports whether a title is a category and its count,
// "General issues: 1 issue found", "Critical: 0 issues": a tally of the
// category, not a finding. "src/auth.go:42" is a line of a file.
func countAfterColon(s string) bool {
	i := strings.LastIndexByte(s, ':')
	return i >= 0 && i+1 < len(s) && s[i+1] == ' ' && isCount(strings.TrimRight(s[i+1:], ". "))
}

// wordTallies records the counts a line states in words (wordTallies), one
// tally a severity: "critical: 1, blocker: 1" states two P0 findings.
func (g *general) wordTallies(ts []sevCount, line int) {
	var sum [4]int
	var seen [4]bool
	for _, c := range ts {
		k := c.sev.Rank()
		if k < 0 || k > 3 {
			continue
		}
		sum[k] += c.n
		seen[k] = true
	}
	for k, s := range [...]Severity{P0, P1, P2, P3} {
		if seen[k] {
			g.tallies = append(g.tallies, tally{line: line, sev: s, n: sum[k], group: -1})
		}
	}
}
