package synth

import "strings"

// oneLine collapses every run of white space in s, line breaks included, into
// one space, and trims it: agent text on one line of a plain-text output.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// mdText makes agent text safe on one Markdown line and in a table cell.
func mdText(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

// mdList is mdText of items joined by sep.
func mdList(items []string, sep string) string {
	return mdText(strings.Join(items, sep))
}

// mdCode wraps s in a code span, with a fence longer than any backtick run in s.
func mdCode(s string) string {
	s = oneLine(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// mdCodeCell is mdCode for a table cell.
func mdCodeCell(s string) string {
	return strings.ReplaceAll(mdCode(s), "|", `\|`)
}
