package synth

import (
	"slices"
	"strings"
)

// identsOf returns the code identifiers a text names, lower-cased, sorted
// and each once (eachIdent).
func identsOf(text string) []string {
	var out []string
	eachIdent(text, func(w string) { out = append(out, lowerASCII(w)) })
	slices.Sort(out)
	return slices.Compact(out)
}

// eachIdent calls f with each code identifier of a text, as written: the
// words that only code writes — snake_case, camelCase with a capital after
// two small letters, dotted names (os.path.join, findings.json), paths
// (src/upload.py) and flags (--dry-run) — less the quotes, brackets and
// punctuation around them. A file:line ref is a place (refBonus), not a
// name: its line is cut off. It allocates nothing.
func eachIdent(text string, f func(string)) {
	const marks = "`'\"()[]{}<>,;:!?*"
	for i := 0; i < len(text); {
		for i < len(text) && isSpaceByte(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSpaceByte(text[j]) {
			j++
		}
		w := text[i:j]
		i = j
		if len(w) < 4 {
			continue
		}
		w = strings.Trim(strings.TrimRight(strings.Trim(w, marks), "."), marks)
		if k := strings.LastIndexByte(w, ':'); k > 0 && k+1 < len(w) && w[k+1] >= '0' && w[k+1] <= '9' {
			w = w[:k]
		}
		if len(w) >= 4 && len(w) <= 80 && isIdent(w) {
			f(w)
		}
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// lowerASCII lower-cases an identifier (ASCII only, isIdent), copying it
// only when it holds a capital.
func lowerASCII(w string) string {
	for i := 0; i < len(w); i++ {
		if 'A' <= w[i] && w[i] <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}

// isIdent reports whether a word is written as code is (eachIdent).
func isIdent(w string) bool {
	letters, inner := 0, false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z':
			letters++
		case c >= 'A' && c <= 'Z':
			letters++
			if i > 1 && w[i-1] >= 'a' && w[i-1] <= 'z' && w[i-2] >= 'a' && w[i-2] <= 'z' {
				inner = true // camelCase
			}
		case c >= '0' && c <= '9':
		case c == '_':
			inner = inner || i > 0 && i < len(w)-1
		case c == '/':
			// a path: two slashes, or one and a dot ("and/or" is a word)
			inner = inner || strings.Count(w, "/") > 1 || strings.Contains(w, ".")
		case c == '.':
			inner = inner || i > 0 && i < len(w)-1 && w[i+1] != '.'
		case c == '-':
			inner = inner || i == 1 && w[0] == '-'
		default:
			return false
		}
	}
	return inner && letters >= 3 && !strings.Contains(w, "://")
}
