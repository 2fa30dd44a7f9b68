package parse

import "strings"

// GroupHeading reads the text of a heading, or of a bold line over a list,
// as a severity group heading of SPEC §2.3 rule 3 standing alone: less
// numbering, emoji, a tier prefix, a count and a trailing note, it holds
// only severity words and words that name a list of findings ("High
// Priority Issues", "P1 — Should Fix (14)", "Critical Findings (P0)").
// The general reader also looks at what stands under a heading (a heading
// with a note is a group only over findings); this does not. verify reads
// a synthesis's headings with it, so that the two read groups by one rule.
func GroupHeading(text string) (Severity, bool) {
	t := strings.TrimSpace(trimEmoji(stripBold(text)))
	t = genNumberingRe.ReplaceAllString(t, "")
	t = strings.TrimSpace(tierRe.ReplaceAllString(t, ""))
	t = strings.TrimSpace(trimEmoji(t))
	core, _, _ := groupCore(t)
	return groupPhrase(core)
}

// SeverityValue reads a whole severity value (SPEC §2.3, the one
// vocabulary): a field's value, a table cell, the text of brackets or
// parentheses ("High", "MEDIUM-HIGH", "P1", "Must fix", "🔴 Critical").
// position says the value stands in a severity position (a field, a
// severity column, brackets, parentheses), where the vocabulary's words
// that are severities only there ("important", "warning") count too. ok
// is false for anything but a finding's severity: an improvement, or text
// holding other words.
func SeverityValue(s string, position bool) (Severity, bool) {
	sev, c, ok := severityValue(s, position)
	return sev, ok && c == sevFinding
}
