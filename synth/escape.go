package synth

import (
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/inert"
)

// This file holds the one rule by which agent-written text (titles,
// summaries, sections, agent names, categories, file refs, diagnostics)
// enters Markdown (STYLE §15): summary.md and, being the same bytes, the
// GitHub step summary. Every Markdown renderer puts agent text through
// mdText (or mdCode, a code span) and never concatenates it raw. Both put
// the text on one line with inert.Line first, so that no control character
// or bidirectional override reaches a reader (SPEC §10): they show as
// visible stand-ins ("␛[2J", "⟨U+202E⟩").
//
// The plain-text outputs take inert.Collapse (one line, characters kept):
// Markdown escapes there would show as stray backslashes. The annotations, which a person reads in the job log,
// put it through inert.Line as well; the machine outputs (SARIF
// message.text, rdjsonl, JUnit, escaped by encoding/xml) keep the
// characters as the agents wrote them, escaped by their encoders.

// mdText returns agent text as inert Markdown for one line or one table cell:
// a CommonMark/GFM renderer shows it as the literal text (on one line) and
// reads no markup in it. It is put on one line, inert (inert.Line), and a
// backslash goes before:
//   - \ < > [ ] | * ~ $ always: raw HTML, comments and autolinks (<…>), links
//     and images ([x](…)), a cell's end, emphasis and strikethrough, GitHub's
//     math;
//   - _ unless it stands between two letters or digits (snake_case stays);
//   - & that could start an entity (&lt; &#60;);
//   - the ':' of "://", the '.' of a word "www." and the '@' of an address:
//     GFM's extended autolinks;
//   - the first # - + of text that starts with a heading or list marker
//     ("# ", "- ", "+ "), the '.' or ')' of a leading "1. " or "1) ", the
//     first character of text made of '-', '=' and spaces: text that starts
//     a line opens no heading, list, underline or rule.
//
// A backtick run that a run of the same length closes, with no '|' between
// them, is kept as the code span the agent wrote (its content is literal);
// any other backtick is escaped. Other characters are left alone, so that
// ordinary text stays readable.
func mdText(s string) string {
	s = inert.Line(s)
	mark := blockMarker(s)
	var b strings.Builder // in use from the first escape; s[:done] is in it
	done := 0
	escape := func(i int) {
		if b.Cap() == 0 {
			b.Grow(len(s) + len(s)/8)
		}
		b.WriteString(s[done:i])
		b.WriteByte('\\')
		done = i
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			n := run(s, i, '`')
			if end := closingRun(s, i+n, n); end > 0 && !strings.Contains(s[i:end], "|") {
				i = end - 1 // a code span, kept as written
				continue
			}
			for k := range n {
				escape(i + k)
			}
			i += n - 1
			continue
		}
		if i == mark || escapes(s, i) {
			escape(i)
		}
	}
	if b.Len() == 0 {
		return s // nothing to escape: no copy
	}
	b.WriteString(s[done:])
	return b.String()
}

// escapes reports whether mdText puts a backslash before s[i], which is not
// a backtick.
func escapes(s string, i int) bool {
	switch s[i] {
	case '\\', '<', '>', '[', ']', '|', '*', '~', '$':
		return true
	case '_':
		return !(i > 0 && alnum(s[i-1]) && i+1 < len(s) && alnum(s[i+1]))
	case '&':
		return i+1 < len(s) && (s[i+1] == '#' || letter(s[i+1]))
	case ':':
		return strings.HasPrefix(s[i+1:], "//")
	case '.':
		return i >= 3 && strings.EqualFold(s[i-3:i], "www") && (i == 3 || !alnum(s[i-4]))
	case '@':
		return i > 0 && (alnum(s[i-1]) || strings.IndexByte("._+-", s[i-1]) >= 0)
	}
	return false
}

// blockMarker returns the index of the byte that makes s, at the start of a
// line, open a block, or -1: the '#' of an ATX heading ("# x"), the '-' or
// '+' of a list item ("- x"), the '.' or ')' of an ordered one ("1. x"), the
// first byte of a setext underline or thematic break ('-', '=' and spaces).
func blockMarker(s string) int {
	if s != "" && strings.Trim(s, "-= ") == "" {
		return 0
	}
	at, n := 0, run(s, 0, '#')
	if n == 0 {
		switch d := run(s, 0, 0); {
		case s != "" && (s[0] == '-' || s[0] == '+'):
			n = 1
		case d > 0 && d < 10 && d < len(s) && (s[d] == '.' || s[d] == ')'):
			at, n = d, d+1
		default:
			return -1
		}
	}
	if n == len(s) || s[n] == ' ' {
		return at
	}
	return -1
}

// run returns the length of the run of c at s[i:]; c 0 counts ASCII digits.
func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && (s[i+n] == c || c == 0 && s[i+n] >= '0' && s[i+n] <= '9') {
		n++
	}
	return n
}

// closingRun returns the end of the first run of exactly n backticks at or
// after s[i:], or 0 when there is none.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return 0
		}
		i += j
		m := run(s, i, '`')
		if m == n {
			return i + m
		}
		i += m
	}
	return 0
}

func letter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func alnum(c byte) bool { return letter(c) || c >= '0' && c <= '9' }

// mdList is mdText of items joined by sep.
func mdList(items []string, sep string) string {
	return mdText(strings.Join(items, sep))
}

// mdCode wraps s, on one line and inert (inert.Line), in a code span: the
// fence is longer than any backtick run in s, so nothing in s can close it,
// and the content of a code span is literal text.
func mdCode(s string) string {
	s = inert.Line(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// MarkdownCode returns s as an inert code span on one line (mdCode): for a
// caller that names a path or a name in text summary.md shows as Markdown,
// such as Options.EvidenceNote. It is the one code-span escape.
func MarkdownCode(s string) string { return mdCode(s) }

// mdCodeCell is mdCode for a table cell: GFM ends a cell at a '|' even inside
// a code span unless it is escaped, and shows "\|" there as "|".
func mdCodeCell(s string) string {
	return strings.ReplaceAll(mdCode(s), "|", `\|`)
}
