package parse

import (
	"math"
	"strings"
	"unicode/utf8"
)

// line is one line of a report, with what the line loop learned about it.
// A report has a line for every few dozen bytes: its fields are ordered
// and sized so that it takes 48 bytes, not 64 (TestLineSize).
type line struct {
	text string // the line without its newline (and without \r)
	// head is the heading's text without #s, bold markers or trailing colon.
	head string
	num  int // 1-based line number
	// start is the offset of text in the report's text, the string it is
	// part of (see description); -1 past 2 GiB, where text is read as a
	// copy.
	start int32
	// heading level 1–6 of an ATX heading, 0 when the line is not a heading.
	level int8
	// masked lines are never read for findings: fenced code, <thinking>, HTML
	// comments, YAML front matter.
	masked bool
	fenced bool // inside a fenced code block (masked too)
}

// lineStart is the start field of a line at offset off: off, or -1 when it
// does not fit.
func lineStart(off int) int32 {
	if off > math.MaxInt32 {
		return -1
	}
	return int32(off)
}

// splitLines splits s into lines, dropping a UTF-8 BOM and \r before \n;
// a \r alone ends a line too (old Mac line ends: without it such a report
// is one line, and its findings are lost). Invalid UTF-8 is replaced so
// every string downstream is valid. It returns the text as one string too:
// the lines are parts of it.
func splitLines(s string) (string, []line) {
	s = strings.TrimPrefix(s, "\xef\xbb\xbf")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = loneCRs(s)
	lines := make([]line, 0, strings.Count(s, "\n")+1)
	off := 0
	for n := 1; off < len(s); n++ {
		i := strings.IndexByte(s[off:], '\n')
		start := off
		var t string
		if i < 0 {
			t = s[off:]
			off = len(s)
		} else {
			t = s[off : off+i]
			off += i + 1
		}
		t = strings.TrimSuffix(t, "\r")
		lines = append(lines, line{num: n, text: t, start: lineStart(start)})
	}
	return s, lines
}

// mask marks the lines that are never read for findings. It returns the
// line index of YAML front matter's opening "---" and the index just past
// its closing line (0, 0 when there is none).
func mask(lines []line) (frontStart, frontEnd int) {
	i := 0
	// YAML front matter: a first line "---" closed by "---" or "...";
	// after a run-uuid comment on the first line, its next line (SPEC
	// §2.5: an optional run-uuid comment, then optional front matter).
	start := 0
	if len(lines) > 1 && runUUIDRe.MatchString(strings.TrimSpace(lines[0].text)) {
		start = 1
	}
	if len(lines) > start && strings.TrimSpace(lines[start].text) == "---" {
		for j := start + 1; j < len(lines) && j < start+maxFrontMatterLines; j++ {
			t := strings.TrimSpace(lines[j].text)
			if t == "---" || t == "..." {
				for k := 0; k <= j; k++ {
					lines[k].masked = true
				}
				i, frontStart, frontEnd = j+1, start, j+1
				break
			}
		}
	}
	var fence string // the opening fence run (``` or ~~~…) while inside a fence
	depth := 0       // nesting depth of fences inside the outer one
	inThinking, inComment := false, false
	for ; i < len(lines); i++ {
		l := &lines[i]
		t := strings.TrimSpace(l.text)
		switch {
		case fence != "":
			l.masked, l.fenced = true, true
			// Agents nest fences (a ```markdown example inside a ``` block):
			// a fence line with an info string opens a nested block, a bare
			// one closes the innermost. CommonMark would end the outer block
			// at the first bare fence and mask the rest of the report.
			if f := fenceOpen(l.text); f != "" && f[0] == fence[0] && len(f) >= len(fence) {
				if strings.TrimSpace(strings.TrimLeft(t, f[:1])) != "" {
					depth++
				} else if depth > 0 {
					depth--
				} else {
					fence = ""
				}
			}
			continue
		case inThinking:
			l.masked = true
			if strings.Contains(t, "</thinking>") {
				inThinking = false
			}
			continue
		case inComment:
			l.masked = true
			if strings.Contains(t, "-->") {
				inComment = false
			}
			continue
		}
		if f := fenceOpen(l.text); f != "" {
			fence, depth = f, 0
			l.masked, l.fenced = true, true
			continue
		}
		if strings.HasPrefix(t, "<thinking>") {
			l.masked = true
			inThinking = !strings.Contains(t, "</thinking>")
			continue
		}
		if strings.HasPrefix(t, "<!--") {
			l.masked = true
			inComment = !strings.Contains(t, "-->")
			continue
		}
		if t == "<answer>" || t == "</answer>" {
			l.masked = true
			continue
		}
		level, head := heading(l.text)
		l.level, l.head = int8(level), head
	}
	return frontStart, frontEnd
}

const maxFrontMatterLines = 2000

// fenceOpen returns the fence run (```, ~~~~, …) when s opens a fenced code
// block: at most three spaces of indent, then three or more backticks or tildes.
func fenceOpen(s string) string {
	indent := len(s) - len(strings.TrimLeft(s, " "))
	if indent > 3 {
		return ""
	}
	s = s[indent:]
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	c := s[0]
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 || (c == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return ""
	}
	return s[:n]
}

// heading parses an ATX heading: up to three spaces, 1–6 '#', a space. It
// returns the level and the text without the #s, surrounding bold/italic
// markers, closing #s and a trailing colon.
func heading(s string) (int, string) {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 {
		return 0, ""
	}
	if len(t) > 3 && t[0] == '<' {
		return htmlHeading(t)
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t' && !emojiAt(t[n:])) {
		return 0, ""
	}
	text := strings.TrimSpace(t[n:])
	text = strings.TrimSpace(strings.TrimRight(text, "#"))
	return n, cleanHeading(text)
}

// htmlHeading reads an HTML heading written on one line ("<h3>High</h3>",
// "<h2 id=\"f\">Findings</h2>"), as reports rendered from HTML or written
// for a site do: its level and its text without tags.
func htmlHeading(t string) (int, string) {
	t = strings.TrimSpace(t)
	if len(t) < 9 || (t[1] != 'h' && t[1] != 'H') || t[2] < '1' || t[2] > '6' || (t[3] != '>' && t[3] != ' ') {
		return 0, ""
	}
	n := int(t[2] - '0')
	open := strings.IndexByte(t, '>')
	closing := strings.LastIndex(strings.ToLower(t), "</h"+t[2:3]+">")
	if open < 0 || closing <= open || closing+5 != len(t) {
		return 0, ""
	}
	return n, cleanHeading(strings.TrimSpace(stripTags(t[open+1 : closing])))
}

// emojiAt reports whether s starts with an emoji mark: "###✅ Fixed"
// is a heading its author forgot a space in.
func emojiAt(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 1 && isEmojiRune(r)
}

// cleanHeading removes emphasis wrapping a whole heading and a trailing colon.
func cleanHeading(s string) string {
	for {
		t := strings.TrimSpace(s)
		switch {
		case len(t) >= 4 && strings.HasPrefix(t, "**") && strings.HasSuffix(t, "**") && !strings.Contains(t[2:len(t)-2], "**"):
			s = t[2 : len(t)-2]
		case len(t) >= 4 && strings.HasPrefix(t, "__") && strings.HasSuffix(t, "__"):
			s = t[2 : len(t)-2]
		default:
			return strings.TrimSpace(strings.TrimSuffix(t, ":"))
		}
	}
}

// isRule reports whether s is a thematic break (---, ***, ___).
func isRule(s string) bool {
	// Three or more of one of '-', '*', '_', spaces between them allowed:
	// read in place, not by removing the spaces of every line that starts
	// with one (isRuleCopying in lines_test.go).
	t := strings.TrimSpace(s)
	if t == "" || t[0] != '-' && t[0] != '*' && t[0] != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case t[0]:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

// stripBold removes ** emphasis markers from s. (__ is left alone: it is
// far more often part of a name, as in __init__.py, than emphasis.)
func stripBold(s string) string {
	if !strings.Contains(s, "**") {
		return s
	}
	return strings.ReplaceAll(s, "**", "")
}

// listItem splits a list item into its marker kind and text: "- x", "* x",
// "+ x" (bullet) and "1. x", "1) x" (numbered). indent is the marker's column.
func listItem(s string) (kind byte, indent int, text string) {
	t := strings.TrimLeft(s, " \t")
	indent = len(s) - len(t)
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		if t[0] == '*' && strings.HasPrefix(t, "**") {
			return 0, 0, ""
		}
		return '-', indent, strings.TrimSpace(t[2:])
	}
	n := 0
	for n < len(t) && n < 4 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && (t[n+1] == ' ' || t[n+1] == '\t') {
		return '1', indent, strings.TrimSpace(t[n+2:])
	}
	return 0, 0, ""
}

// loneCRs returns s with each \r that no \n follows made a \n: byte for
// byte, so offsets into s stay those of the text as read. s itself when it
// has none (no copy).
func loneCRs(s string) string {
	i := strings.IndexByte(s, '\r')
	for i >= 0 && i+1 < len(s) && s[i+1] == '\n' {
		j := strings.IndexByte(s[i+1:], '\r')
		if j < 0 {
			return s
		}
		i += 1 + j
	}
	if i < 0 {
		return s
	}
	b := []byte(s)
	for k := i; k < len(b); k++ {
		if b[k] == '\r' && (k+1 == len(b) || b[k+1] != '\n') {
			b[k] = '\n'
		}
	}
	return string(b)
}
