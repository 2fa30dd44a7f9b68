package synth

import (
	"slices"
	"strings"
)

// identsOf returns the code identifiers a text names, lower-cased, sorted
// and each once: words that only code writes — snake_case, camelCase or
// PascalCase with a capital inside, dotted names (os.path.join,
// findings.json), paths (src/upload.py) and flags (--dry-run). A file:line
// ref is a place (refBonus), not a name: its line is cut off.
func identsOf(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		const marks = "`'\"()[]{}<>,;:!?*"
		w = strings.Trim(strings.TrimRight(strings.Trim(w, marks), "."), marks)
		if i := strings.LastIndexByte(w, ':'); i > 0 && i+1 < len(w) && w[i+1] >= '0' && w[i+1] <= '9' {
			w = w[:i]
		}
		if len(w) < 4 || len(w) > 80 || !isIdent(w) {
			continue
		}
		out = append(out, strings.ToLower(w))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// isIdent reports whether a word is written as code is (identsOf).
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
