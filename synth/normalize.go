package synth

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ref is a file reference: a path and an optional line range.
type Ref struct {
	Path  string
	Start int // 0: the whole file
	End   int // == Start for a single line
}

// dropRefLines returns s with the line numbers of its file references cut:
// "tool (mcp_server.py:699-735)" → "tool (mcp_server.py)". A reference is a
// path (letters, digits, "_./-", holding a letter and a '/' or a '.'
// before a letter) followed by ":N" or ":N-M"; "Phase 2: 3 steps" and
// "10:30" are not.
func dropRefLines(s string) string {
	if strings.IndexByte(s, ':') < 0 {
		return s
	}
	var b []byte
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ':' || i+1 >= len(s) || s[i+1] < '0' || s[i+1] > '9' || !refPathBefore(s[:i]) {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j+1 < len(s) && (s[j] == '-' || s[j] == ',') && s[j+1] >= '0' && s[j+1] <= '9' {
			for j++; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
			}
		}
		b = append(b, s[last:i]...)
		last, i = j, j-1
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// refPathBefore reports whether s ends in a path that a file reference
// names: "mcp_server.py", "src/x", not "Phase 2" or "10".
func refPathBefore(s string) bool {
	i := len(s)
	for i > 0 {
		c := s[i-1]
		if c == '_' || c == '.' || c == '/' || c == '-' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' {
			i--
			continue
		}
		break
	}
	p := s[i:]
	letter, path := false, false
	for k := 0; k < len(p); k++ {
		c := p[k]
		switch {
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			letter = true
		case c == '/':
			path = true
		case c == '.' && k+1 < len(p) && p[k+1]|0x20 >= 'a' && p[k+1]|0x20 <= 'z':
			path = true
		}
	}
	return letter && path
}

// ParseRef reads "path", "path:12" or "path:12-14". A leading "./" and
// surrounding backticks are dropped.
func ParseRef(s string) Ref {
	for {
		t := strings.TrimPrefix(strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "`")), "./")
		if t == s {
			break
		}
		s = t
	}
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return Ref{Path: s}
	}
	lines := s[i+1:]
	from, to, isRange := strings.Cut(lines, "-")
	start, err := strconv.Atoi(from)
	if err != nil || start <= 0 {
		return Ref{Path: s}
	}
	end := start
	if isRange {
		if e, err := strconv.Atoi(to); err == nil && e >= start {
			end = e
		} else {
			return Ref{Path: s}
		}
	}
	return Ref{Path: s[:i], Start: start, End: end}
}

// String formats r as "path", "path:12" or "path:12-14".
func (r Ref) String() string {
	switch {
	case r.Start == 0:
		return r.Path
	case r.End > r.Start:
		return r.Path + ":" + strconv.Itoa(r.Start) + "-" + strconv.Itoa(r.End)
	}
	return r.Path + ":" + strconv.Itoa(r.Start)
}

// writes reports whether s is exactly r.String(), without making that
// string: a reference already written the canonical way is kept as it is.
func (r Ref) writes(s string) bool {
	rest, ok := strings.CutPrefix(s, r.Path)
	if !ok || r.Start == 0 {
		return ok && rest == ""
	}
	var b [48]byte
	t := strconv.AppendInt(append(b[:0], ':'), int64(r.Start), 10)
	if r.End > r.Start {
		t = strconv.AppendInt(append(t, '-'), int64(r.End), 10)
	}
	return rest == string(t)
}

// point is a file and a line: where a reference starts, as a map key.
type point struct {
	path string
	line int
}

// point is the "file:line" of a reference (its path and first line), or ""
// for a reference without a line.
func (r Ref) point() string {
	if r.Start == 0 || r.Path == "" {
		return ""
	}
	return r.Path + ":" + strconv.Itoa(r.Start)
}

// Overlaps reports whether r and o name the same path and intersecting line
// ranges; a reference without a line covers the whole file.
func (r Ref) Overlaps(o Ref) bool {
	if r.Path != o.Path || r.Path == "" {
		return false
	}
	if r.Start == 0 || o.Start == 0 {
		return true
	}
	return r.Start <= o.End && o.Start <= r.End
}

// mentions returns which of the needles the text names, for the
// acknowledgement rule of SPEC §5.5 ("B's report names A, E's id or one of E's
// file refs"). A word is a run of letters, digits and "_-./:#@"; a needle is
// named when it equals a word, the word less its leading and trailing
// punctuation (".:,#/"), the word less its trailing punctuation (a dotfile:
// ".env:1." names .env:1), or the word less a "./" prefix — so "fd-safety:"
// names fd-safety and "`./a.go:12`." names a.go:12, but "fd-safety-2" does not
// name fd-safety. Only hits allocate.
func mentions(text []byte, needles map[string]struct{}) map[string]bool {
	found := map[string]bool{}
	eachMention(text, needles, 0, math.MaxInt, func(w string, _ struct{}) { found[w] = true })
	return found
}

// names reports whether text names word, as mentions would say.
func names(text, word string) bool {
	if !strings.Contains(text, word) {
		return false
	}
	named := false
	eachMention(text, map[string]struct{}{word: {}}, len(word), len(word), func(string, struct{}) { named = true })
	return named
}

// eachMention calls f with each needle text names, by the words of
// mentions, once per naming word, with its value in needles; a text read
// as a string is not copied. No needle is shorter than minLen bytes or
// longer than maxLen: words and their trimmed forms outside those lengths
// are not looked up (most words of a description, when the needles are
// IDs).
func eachMention[T ~string | ~[]byte, V any](text T, needles map[string]V, minLen, maxLen int, f func(needle string, v V)) {
	if len(needles) == 0 {
		return
	}
	look := func(w T) {
		if len(w) < minLen || len(w) > maxLen {
			return
		}
		if v, ok := needles[string(w)]; ok {
			f(string(w), v)
		}
	}
	check := func(w T) {
		if len(w) < minLen {
			return // its trimmed forms are shorter still
		}
		look(w)
		t := w
		for len(t) > 0 && strings.IndexByte(".:,#/", t[len(t)-1]) >= 0 {
			t = t[:len(t)-1]
		}
		if len(t) != len(w) && len(t) > 0 && t[0] == '.' {
			// A dotfile ref at the end of a sentence: ".env:1." names .env:1.
			look(t)
		}
		for len(t) > 0 && strings.IndexByte(".:#/", t[0]) >= 0 && !(len(t) > 1 && t[0] == '.' && t[1] == '/') {
			t = t[1:]
		}
		if len(t) > 2 && t[0] == '.' && t[1] == '/' {
			t = t[2:]
		}
		if len(t) != len(w) {
			look(t)
		}
	}
	start := -1
	for i := 0; i < len(text); {
		c := text[i]
		size := 1
		inWord := false
		if c < utf8.RuneSelf {
			inWord = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-./:#@", c) >= 0
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(string(text[i:min(i+utf8.UTFMax, len(text))]))
			inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if inWord && start < 0 {
			start = i
		} else if !inWord && start >= 0 {
			check(text[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		check(text[start:])
	}
}
