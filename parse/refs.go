package parse

import (
	"slices"
	"strings"
)

// refPath is the path of a file reference, as a regular expression with one
// group: directories, then a last element that has an extension ("a.go",
// "Makefile.am") or is a dotfile (".env", ".gitlab-ci.yml": a dot, then a
// letter), with no two dots in a row and no dot at its end. It must follow
// the start of the text or a character that cannot be part of a path, so
// that it never starts inside a word or a run of dots: "...:12",
// "so on...env:12", "etc.:3" and "v1.2:3" are not references.
// Every reference form (refRe here, the wordy forms of evidence lines) is
// built on it, so that a path is a path wherever an agent writes it.
const refPath = `(?:^|[^A-Za-z0-9_./~:-])((?:[A-Za-z0-9_.~@+-]+/)*` +
	`(?:[A-Za-z0-9_@+-]+(?:\.[A-Za-z0-9_@+-]+)*\.[A-Za-z][A-Za-z0-9]{0,9}|\.[A-Za-z][A-Za-z0-9_@+-]*(?:\.[A-Za-z0-9_@+-]+)*))`

// fileRefs returns the file:line and file:line-line references in s, in
// order of appearance, without duplicates: what refPath + `:(\d{1,7})(?:\s?[-–]\s?(\d{1,7}))?\b`
// finds, leftmost first and without overlaps. URLs are not references: the
// "/" before a host is never a boundary. A hand-written scanner, not that
// regular expression: on prose reports the expression was half of the parse
// (refs_test.go keeps it as the reference, and a fuzz target compares them).
func fileRefs(s string) []string { return fileRefsAs(s, false) }

// fileRefsOfText is fileRefs of s, a part of the report's text, which the
// report holds anyway: a reference written as it is given ("src/a.go:12")
// is that part of s, not a copy. A finding of the general reader held its
// one reference as a string of its own: 6 MB at 200,000 findings, live
// from the parse to the end of synth (TestFileRefsOfTextAsFileRefs).
// Not for a text made for the call: the reference would hold all of it.
func fileRefsOfText(s string) []string { return fileRefsAs(s, true) }

// fileRefsAs is fileRefs, its references parts of s when share is set and
// they are written as given.
func fileRefsAs(s string, share bool) []string {
	if !hasColonDigit(s) {
		return nil
	}
	var refs []string
	var seen map[string]bool // only for lines with many references
	pos := 0                 // where the next match may begin
	for c := strings.IndexByte(s, ':'); c >= 0; {
		path, line, end, next, ok := refAt(s, c, pos)
		if ok {
			pos = next
			ref := ""
			if share {
				ref = refAsWritten(s, c, path, line, end)
			}
			if ref == "" {
				ref = path + ":" + line
				if end != "" && end != line {
					ref += "-" + end
				}
			}
			if !refSeen(refs, seen, ref) {
				refs = append(refs, ref)
				if len(refs) == 16 {
					seen = make(map[string]bool, 32)
					for _, r := range refs {
						seen[r] = true
					}
				} else if seen != nil {
					seen[ref] = true
				}
			}
		}
		j := strings.IndexByte(s[c+1:], ':')
		if j < 0 {
			break
		}
		c += 1 + j
	}
	return refs
}

// refAsWritten is the reference path:line (and -end when end is another
// line) as the part of s around its colon at c, or "" when s does not
// write it so.
func refAsWritten(s string, c int, path, line, end string) string {
	r, e := c-len(path), c+1+len(line)
	if r < 0 || e > len(s) || s[r:c] != path || s[c+1:e] != line {
		return ""
	}
	if end != "" && end != line {
		if e+1+len(end) > len(s) || s[e] != '-' || s[e+1:e+1+len(end)] != end {
			return ""
		}
		e += 1 + len(end)
	}
	return s[r:e]
}

// endsWithRef reports whether s ends with a file:line reference
// ("… in src/App.java:23"): its last number is a line of a file, not a
// count ("Critical issues: 23").
func endsWithRef(s string) bool {
	s = strings.TrimRight(s, " \t`)]*_.")
	c := strings.LastIndexByte(s, ':')
	for c >= 0 {
		if _, _, _, next, ok := refAt(s, c, 0); ok {
			return next >= len(s)
		}
		if c = strings.LastIndexByte(s[:c], ':'); c < 0 || len(s)-c > 24 {
			return false
		}
	}
	return false
}

// refSeen reports whether ref is among refs (or in seen, when there is one).
func refSeen(refs []string, seen map[string]bool, ref string) bool {
	if seen != nil {
		return seen[ref]
	}
	return slices.Contains(refs, ref)
}

// refAt reads the reference whose path ends at the colon s[c], if there is
// one beginning at or after pos: its path, line and range end (empty when
// none), and the index just past it.
func refAt(s string, c, pos int) (path, line, end string, next int, ok bool) {
	line, end, next, ok = refLines(s, c+1)
	if !ok {
		return
	}
	// The path is the run of path characters before the colon: a path
	// holds no colon, so a reference ending here must end at that run's end.
	r := c
	for r > 0 && isRefPathByte(s[r-1]) {
		r--
	}
	if r == c {
		return "", "", "", 0, false
	}
	// Facts about the run that decide, for any start, whether its path is
	// valid: the last "//", the last slash, and in the last element the
	// last "~", "..", and ".".
	lastDS, ls := r-2, r-1
	lastTilde, lastDD, lastDot := -1, -1, -1
	for i := r; i < c; i++ {
		switch s[i] {
		case '/':
			ls = i
			if i+1 < c && s[i+1] == '/' {
				lastDS = i
			}
		case '~':
			lastTilde = i
		case '.':
			lastDot = i
			if i+1 < c && s[i+1] == '.' {
				lastDD = i
			}
		}
	}
	// A path begins at the start of the text or after a character that
	// cannot be part of one: the run's start, or just after an "@" or "+"
	// inside it (path characters that are also boundaries).
	for p := r; p < c; p++ {
		if p > r && s[p-1] != '@' && s[p-1] != '+' {
			continue
		}
		if p == 0 {
			if pos != 0 {
				continue
			}
		} else if p-1 < pos || !refBoundary(s[p-1]) {
			continue
		}
		if refPathValid(s, p, c, lastDS, ls, lastTilde, lastDD, lastDot) {
			return s[p:c], line, end, next, true
		}
	}
	return "", "", "", 0, false
}

// refPathValid reports whether s[p:c], a run of path characters, is a
// refPath: directories with no empty name, then a last element that is a
// name with an extension or a dotfile, with no "~", no ".." and no "." at
// its end. The other arguments are the run's facts of refAt.
func refPathValid(s string, p, c, lastDS, ls, lastTilde, lastDD, lastDot int) bool {
	q := p // the last element's start
	if p <= ls {
		if s[p] == '/' || lastDS >= p {
			return false
		}
		q = ls + 1
	}
	if q >= c || lastTilde >= q || lastDD >= q || s[c-1] == '.' {
		return false
	}
	if s[q] == '.' { // a dotfile: a dot, then a letter
		return q+1 < c && isASCIILetter(s[q+1])
	}
	// A name with an extension: a letter, then up to nine letters or digits.
	if lastDot <= q || c-lastDot-1 > 10 || !isASCIILetter(s[lastDot+1]) {
		return false
	}
	for i := lastDot + 2; i < c; i++ {
		if !isASCIILetter(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// refLines reads `(\d{1,7})(?:\s?[-–]\s?(\d{1,7}))?\b` at s[i:]: the line,
// the range end (empty when none) and the index past them.
func refLines(s string, i int) (line, end string, next int, ok bool) {
	n := refDigits(s, i)
	if n == 0 || n > 7 {
		return "", "", 0, false
	}
	line, q := s[i:i+n], i+n
	// A range: an optional space, a hyphen or an en dash, an optional
	// space, then a line followed by a word boundary.
	j := q
	if j < len(s) && isRegexpSpace(s[j]) {
		j++
	}
	switch {
	case j < len(s) && s[j] == '-':
		j++
	case strings.HasPrefix(s[j:], "–"):
		j += len("–")
	default:
		j = -1
	}
	if j >= 0 {
		if j < len(s) && isRegexpSpace(s[j]) {
			j++
		}
		if m := refDigits(s, j); m > 0 && m <= 7 && !wordAt(s, j+m) {
			return line, s[j : j+m], j + m, true
		}
	}
	if wordAt(s, q) {
		return "", "", 0, false
	}
	return line, "", q, true
}

// refDigits returns the length of the run of ASCII digits at s[i:].
func refDigits(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n
}

// wordAt reports whether s[i] is an ASCII word character (what \b looks
// at); false at the end of s.
func wordAt(s string, i int) bool { return i < len(s) && isWordByte(s[i]) }

// isRegexpSpace reports whether b is \s of Go's regular expressions.
func isRegexpSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// isRefPathByte reports whether b can be part of a refPath:
// [A-Za-z0-9_.~@+/-].
func isRefPathByte(b byte) bool {
	switch b {
	case '_', '.', '~', '@', '+', '/', '-':
		return true
	}
	return b >= '0' && b <= '9' || isASCIILetter(b)
}

// refBoundary reports whether a path may begin after b: anything but
// [A-Za-z0-9_./~:-] (any byte of a non-ASCII character included).
func refBoundary(b byte) bool {
	return b == '@' || b == '+' || b != ':' && !isRefPathByte(b)
}

// mergeRefs appends the refs of b not already in a (nor earlier in b), in
// b's order. Past a few refs it looks them up in a set, so that merging n
// refs costs O(n), not O(n²): a finding can cite 100k files (SPEC §9).
func mergeRefs(a, b []string) []string {
	if len(b)*(len(a)+len(b)) <= 64 { // at most 64 comparisons
		for _, r := range b {
			if !slices.Contains(a, r) {
				a = append(a, r)
			}
		}
		return a
	}
	seen := make(map[string]struct{}, len(a)+len(b))
	for _, r := range a {
		seen[r] = struct{}{}
	}
	for _, r := range b {
		if _, ok := seen[r]; !ok {
			seen[r] = struct{}{}
			a = append(a, r)
		}
	}
	return a
}

// hasColonDigit is a fast pre-check: a reference needs ":" then a digit.
func hasColonDigit(s string) bool {
	for i := strings.IndexByte(s, ':'); i >= 0 && i+1 < len(s); {
		if s[i+1] >= '0' && s[i+1] <= '9' {
			return true
		}
		j := strings.IndexByte(s[i+1:], ':')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
