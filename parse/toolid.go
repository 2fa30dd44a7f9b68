package parse

import (
	"slices"
	"strings"
)

// toolRuleID reads the rule a code scanner names in brackets at the start
// of a finding's line, after a field name that names the finding or not:
// "Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call
// with shell=True identified" (bandit), "[SC2086] Double quote to prevent
// globbing". The rule's code is the finding's ID, the words after the
// brackets its title. A code is letters, a dash or not, then three digits
// or more ("B602", "PYL-W0122", "SC2086"); "[P1]" and "[H-01]" are a
// severity and an audit's ID, read elsewhere.
func toolRuleID(t string) (id, rest string, ok bool) {
	s := t
	if i := strings.IndexByte(s, ':'); i > 0 && i < len(s)-1 && !strings.HasPrefix(s, "[") {
		name := strings.TrimSpace(s[:i])
		s = strings.TrimSpace(s[i+1:])
		if !strings.HasPrefix(s, "[") || !slices.ContainsFunc(titleFieldNames, func(w string) bool { return strings.EqualFold(w, name) }) {
			return "", t, false
		}
	}
	if !strings.HasPrefix(s, "[") {
		return "", t, false
	}
	j := strings.IndexByte(s, ']')
	if j < 0 {
		return "", t, false
	}
	code, slug, _ := strings.Cut(s[1:j], ":")
	rest = strings.TrimLeft(s[j+1:], sepChars)
	if !ruleCode(code) || !ruleSlug(slug) || rest == "" {
		return "", t, false
	}
	return code, rest, true
}

// ruleCode reports whether s is a scanner's rule code: one to five
// letters, a dash or not, letters or not, then three digits or more.
func ruleCode(s string) bool {
	i := 0
	for i < len(s) && i < 5 && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	if i == 0 {
		return false
	}
	if i < len(s) && s[i] == '-' {
		i++
		for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
			i++
		}
	}
	d := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		d++
	}
	return i == len(s) && d >= 3
}

// ruleSlug reports whether s is empty or a rule's name as scanners write
// it: lower-case letters, digits, underscores and dashes.
func ruleSlug(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || isDigit(c) || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// rankTitle reports whether a title only gives a place in an order: "Rank
// #1", "#2", "No. 3", "Top 1".
func rankTitle(s string) bool {
	w, n, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok {
		w, n = "", w
	}
	if w != "" && !strings.EqualFold(w, "rank") && !strings.EqualFold(w, "ranked") && !strings.EqualFold(w, "no.") &&
		!strings.EqualFold(w, "top") && !strings.EqualFold(w, "number") {
		return false
	}
	n = strings.TrimPrefix(strings.TrimSpace(n), "#")
	return n != "" && isDigits(n) && (w != "" || strings.HasPrefix(strings.TrimSpace(s), "#"))
}
